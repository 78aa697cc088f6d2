import { ApiRequest } from './curl-command';
import {
  DEMO_CARD_ID,
  DEMO_DELETED_TAG_ID,
  DEMO_DELETED_TEMPLATE_ID,
  DEMO_PAGES,
  DEMO_TAG_TO_DETACH,
  DEMO_TAGS_TO_ATTACH,
  DEMO_TEAM_ID,
  DEMO_TEMPLATE_ID,
} from './demo-workspace';

export interface DemoStep {
  /** What the request shows, in one line. */
  title: string;
  request: ApiRequest;
}

const team = `/v1/${DEMO_TEAM_ID}`;
const templates = `${team}/notes/templates`;
const template = `${templates}/${DEMO_TEMPLATE_ID}`;
const pages = `${team}/pages`;
const page = (id: string) => `${pages}/${id}`;
const tags = `${team}/tags`;
const card = `${team}/cards/${DEMO_CARD_ID}`;

/**
 * Every operation once, on the demo workspace as the import leaves it, in an order where each one succeeds.
 * Deletes name seeded ids (re-importing brings them back); `run` makes the new tag's name unique, as a
 * re-import keeps the tags earlier runs created.
 */
export const demoSteps = (run: string): DemoStep[] => [
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
  {
    title: `Take tag ${DEMO_TAG_TO_DETACH} off card ${DEMO_CARD_ID}`,
    request: { method: 'DELETE', path: `${card}/tags/${DEMO_TAG_TO_DETACH}` },
  },
  { title: `Read card ${DEMO_CARD_ID}, with its tags`, request: { method: 'GET', path: card } },
  {
    title: `Share page ${DEMO_PAGES.shared} with anyone who has its link (public_settings.url)`,
    request: { method: 'PATCH', path: page(DEMO_PAGES.shared), body: { is_public: true } },
  },
  {
    title: 'Create a page at the root of project 1',
    request: { method: 'POST', path: pages, body: { project_id: '1', title: 'Meeting notes' } },
  },
  { title: 'List the pages, in tree order', request: { method: 'GET', path: pages } },
  {
    title: `Copy page ${DEMO_PAGES.copied}, under a new title, right after it`,
    request: { method: 'POST', path: `${page(DEMO_PAGES.copied)}/copy`, body: { title: 'Writing style (draft)' } },
  },
  { title: `Delete page ${DEMO_PAGES.deleted}`, request: { method: 'DELETE', path: page(DEMO_PAGES.deleted) } },
  {
    title: 'Create a workspace-wide tag, named for this run',
    request: { method: 'POST', path: tags, body: { name: `Release ${run}`, color: '#2f80ed' } },
  },
  { title: 'List the tags', request: { method: 'GET', path: tags } },
  { title: `Delete tag ${DEMO_DELETED_TAG_ID}`, request: { method: 'DELETE', path: `${tags}/${DEMO_DELETED_TAG_ID}` } },
  {
    title: 'Create a note template',
    request: {
      method: 'POST',
      path: templates,
      body: { title: 'Retrospective', sections: [{ title: 'Went well' }, { title: 'To improve' }] },
    },
  },
  { title: 'List the note templates', request: { method: 'GET', path: templates } },
  {
    title: `Delete note template ${DEMO_DELETED_TEMPLATE_ID}`,
    request: { method: 'DELETE', path: `${templates}/${DEMO_DELETED_TEMPLATE_ID}` },
  },
];
