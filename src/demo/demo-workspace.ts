import { ImportDocument } from '../import/dto/import-document.dto';

export const DEMO_TEAM_ID = 'demo';
export const DEMO_OWNER_ID = 'demo-ada';
export const DEMO_TEMPLATE_ID = 'standup';
/** A template the demo deletes; re-importing brings it back. */
export const DEMO_DELETED_TEMPLATE_ID = 'weekly';
/** The pages, card and tags the printed commands act on. */
export const DEMO_PAGES = {
  renamedAndMoved: '2',
  newParent: '3',
  copied: '4',
  archived: '5',
  deleted: '6',
  shared: '1',
};
/** Page 1's alias_id, fixed so that the demo can print its public URL: {base URL}/p/{alias_id}. */
export const DEMO_SHARED_ALIAS = 'de305d54-75b4-431b-adb2-eb6b9e546014';
export const DEMO_CARD_ID = '1';
export const DEMO_TAGS_TO_ATTACH = ['2', '3'];
export const DEMO_TAG_TO_DETACH = '1';
export const DEMO_DELETED_TAG_ID = '4';

/** A small workspace to try the API on: re-importing it resets it to this state. */
export const DEMO_WORKSPACE: ImportDocument = {
  workspaces: [{ id: DEMO_TEAM_ID, name: 'Demo' }],
  users: [
    { id: DEMO_OWNER_ID, name: 'Ada Lovelace', email: 'ada@example.com' },
    { id: 'demo-grace', name: 'Grace Hopper', email: 'grace@example.com' },
  ],
  members: [
    { team_id: DEMO_TEAM_ID, user_id: DEMO_OWNER_ID, role: 'owner' },
    { team_id: DEMO_TEAM_ID, user_id: 'demo-grace', role: 'member' },
  ],
  projects: [{ team_id: DEMO_TEAM_ID, id: '1', title: 'Handbook' }],
  note_templates: [
    {
      team_id: DEMO_TEAM_ID,
      id: DEMO_TEMPLATE_ID,
      owner_id: DEMO_OWNER_ID,
      title: 'Daily standup',
      context: 'Summarise what each person did, what they will do next and what blocks them.',
      sections: [
        { title: 'Yesterday', description: 'What got done' },
        { title: 'Today', description: 'What comes next' },
        { title: 'Blockers', description: 'What is in the way' },
      ],
      is_shared: true,
    },
    {
      team_id: DEMO_TEAM_ID,
      id: DEMO_DELETED_TEMPLATE_ID,
      owner_id: DEMO_OWNER_ID,
      title: 'Weekly review',
      sections: [{ title: 'Highlights', description: 'What went well this week' }],
    },
  ],
  pages: [
    {
      team_id: DEMO_TEAM_ID,
      id: '1',
      project_id: '1',
      title: 'Welcome',
      owner_id: DEMO_OWNER_ID,
      alias_id: DEMO_SHARED_ALIAS,
      content: '<p>Welcome to the <b>demo</b> workspace. This page is what anyone with its link sees.</p>',
      members: [{ user_id: 'demo-grace', role: 'member' }],
    },
    {
      team_id: DEMO_TEAM_ID,
      id: DEMO_PAGES.renamedAndMoved,
      project_id: '1',
      parent_page_id: '1',
      title: 'Getting started',
      owner_id: 'demo-grace',
    },
    { team_id: DEMO_TEAM_ID, id: DEMO_PAGES.newParent, project_id: '1', title: 'Guides', owner_id: DEMO_OWNER_ID },
    {
      team_id: DEMO_TEAM_ID,
      id: DEMO_PAGES.copied,
      project_id: '1',
      parent_page_id: DEMO_PAGES.newParent,
      title: 'Writing style',
      owner_id: DEMO_OWNER_ID,
    },
    { team_id: DEMO_TEAM_ID, id: DEMO_PAGES.archived, project_id: '1', title: 'Old notes', owner_id: 'demo-grace' },
    { team_id: DEMO_TEAM_ID, id: DEMO_PAGES.deleted, project_id: '1', title: 'Scratch', owner_id: DEMO_OWNER_ID },
  ],
  tags: [
    { team_id: DEMO_TEAM_ID, id: DEMO_TAG_TO_DETACH, project_id: null, name: 'Bug', color: 'red' },
    { team_id: DEMO_TEAM_ID, id: '2', project_id: '1', name: 'Docs', color: 'blue' },
    { team_id: DEMO_TEAM_ID, id: '3', project_id: null, name: 'Idea', color: 'yellow' },
    { team_id: DEMO_TEAM_ID, id: DEMO_DELETED_TAG_ID, project_id: null, name: 'Obsolete', color: 'gray' },
  ],
  cards: [
    {
      team_id: DEMO_TEAM_ID,
      id: DEMO_CARD_ID,
      project_id: '1',
      title: 'Try the API',
      owner_id: DEMO_OWNER_ID,
      members: ['demo-grace'],
      tags: [DEMO_TAG_TO_DETACH],
    },
  ],
};
