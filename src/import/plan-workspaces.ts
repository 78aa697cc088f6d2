import { Statement, TableSpec, upsert } from './bulk-statements';
import { ListedDocument } from './listed-document';
import { References } from './references';

const WORKSPACES: TableSpec = { table: 'workspaces', key: { id: 'text' }, fields: { name: 'text' } };
const USERS: TableSpec = { table: 'users', key: { id: 'text' }, fields: { name: 'text', email: 'text' } };
const MEMBERS: TableSpec = { table: 'members', key: { team_id: 'text', user_id: 'text' }, fields: { role: 'text' } };
const PROJECTS: TableSpec = { table: 'projects', key: { team_id: 'text', id: 'text' }, fields: { title: 'text' } };

/** Workspaces, users, memberships and projects: the things everything else refers to. */
export function planWorkspaces(doc: ListedDocument, refs: References): Statement[] {
  for (const { entry, label } of doc.members) {
    refs.workspace(label, entry.team_id);
    refs.user(label, entry.user_id);
  }
  for (const { entry, label } of doc.projects) refs.workspace(label, entry.team_id);
  return [
    upsert(
      WORKSPACES,
      doc.workspaces.map(({ entry, label }) => ({ entry: label, id: entry.id, name: entry.name ?? '' })),
    ),
    upsert(
      USERS,
      doc.users.map(({ entry, label }) => ({
        entry: label,
        id: entry.id,
        name: entry.name ?? '',
        email: entry.email ?? null,
      })),
    ),
    upsert(
      MEMBERS,
      doc.members.map(({ entry, label }) => ({
        entry: label,
        team_id: entry.team_id,
        user_id: entry.user_id,
        role: entry.role,
      })),
    ),
    upsert(
      PROJECTS,
      doc.projects.map(({ entry, label }) => ({
        entry: label,
        team_id: entry.team_id,
        id: entry.id,
        title: entry.title ?? '',
      })),
    ),
  ];
}
