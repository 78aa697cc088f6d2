import { ApiRequest } from './curl-command';
import { DEMO_CARD_ID, DEMO_PAGES, DEMO_TAGS_TO_ATTACH, DEMO_TEAM_ID, DEMO_TEMPLATE_ID } from './demo-workspace';

export interface DemoStep {
  /** What the request shows, in one line. */
  title: string;
  request: ApiRequest;
}

const team = `/v1/${DEMO_TEAM_ID}`;
const template = `${team}/notes/templates/${DEMO_TEMPLATE_ID}`;
const page = (id: string) => `${team}/pages/${id}`;
const card = `${team}/cards/${DEMO_CARD_ID}`;

/** Every operation once, on the demo workspace as the import leaves it, in an order where each one succeeds. */
export const DEMO_STEPS: DemoStep[] = [
  { title: 'Read the note template', request: { method: 'GET', path: template } },
  {
    title: 'Update the note template: its title and sections',
    request: {
      method: 'PATCH',
      path: template,
      body: {
        title: 'Daily standup (edited)',
        sections: [
          { title: 'Done', description: 'What got done' },
          { title: 'Next', description: 'What comes next' },
        ],
      },
    },
  },
  {
    title: `Read page ${DEMO_PAGES.renamedAndMoved}`,
    request: { method: 'GET', path: page(DEMO_PAGES.renamedAndMoved) },
  },
  {
    title: `Rename page ${DEMO_PAGES.renamedAndMoved}`,
    request: { method: 'PATCH', path: page(DEMO_PAGES.renamedAndMoved), body: { title: 'First steps' } },
  },
  {
    title: `Move page ${DEMO_PAGES.renamedAndMoved} under page ${DEMO_PAGES.newParent}, as its first subpage`,
    request: {
      method: 'PATCH',
      path: page(DEMO_PAGES.renamedAndMoved),
      body: { parent_page_id: DEMO_PAGES.newParent, position: 0 },
    },
  },
  {
    title: `Archive page ${DEMO_PAGES.archived}`,
    request: { method: 'PUT', path: `${page(DEMO_PAGES.archived)}/archive` },
  },
  {
    title: `Attach tags ${DEMO_TAGS_TO_ATTACH.join(' and ')} to card ${DEMO_CARD_ID}`,
    request: { method: 'POST', path: `${card}/tags`, body: { ids: DEMO_TAGS_TO_ATTACH } },
  },
  { title: `Read card ${DEMO_CARD_ID}, with its tags`, request: { method: 'GET', path: card } },
  {
    title: `Share page ${DEMO_PAGES.shared} with anyone who has its link (public_settings.url)`,
    request: { method: 'PATCH', path: page(DEMO_PAGES.shared), body: { is_public: true } },
  },
];
