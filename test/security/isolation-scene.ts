import { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { TokensService } from '../../src/auth/tokens.service';
import { ExportService } from '../../src/export/export.service';
import { importDocument, uniqueTeamId } from '../support/fixtures';

/** The people of the scene. Each is a member of BOTH twin workspaces, with the same role in each. */
export const PEOPLE = ['owner', 'admin', 'member', 'guestListed', 'guestUnlisted', 'viewer'] as const;
export type Person = (typeof PEOPLE)[number];
export const ROLE_OF: Record<Person, string> = {
  owner: 'owner',
  admin: 'admin',
  member: 'member',
  guestListed: 'guest',
  guestUnlisted: 'guest',
  viewer: 'viewer',
};

/** Note templates of each twin; the same ids in both. `owner` null is a built-in template. */
export const TEMPLATE_KINDS = {
  private: { id: 'tpl-private', owner: 'member', shared: false },
  shared: { id: 'tpl-shared', owner: 'member', shared: true },
  builtin: { id: 'tpl-builtin', owner: null, shared: false },
  guestOwned: { id: 'tpl-guest', owner: 'guestListed', shared: false },
  viewerOwned: { id: 'tpl-viewer', owner: 'viewer', shared: false },
} as const satisfies Record<string, { id: string; owner: Person | null; shared: boolean }>;
export type TemplateKind = keyof typeof TEMPLATE_KINDS;

export const PROJECT_ID = '1';
export const PAGE_ID = '10';
export const CARD_ID = '500';
/** Workspace-wide tags, the same ids in both twins; the matrix gives every tagging cell a tag of its own. */
export const TAG_IDS = Array.from({ length: 40 }, (_, n) => String(100 + n));
/** More of them, not on the card, for the cells that delete a tag: each deletes one of its own. */
export const DELETABLE_TAG_IDS = Array.from({ length: 40 }, (_, n) => String(200 + n));

/**
 * Two workspaces ("home" and "twin") with identical ids for the project, page, card, tags and
 * templates, and the same people in the same roles: only the token's workspace tells them apart.
 * A third workspace ("stranger") has a user who belongs to neither.
 */
export interface IsolationScene {
  home: string;
  twin: string;
  stranger: string;
  users: Record<Person, string>;
  strangerUser: string;
  /** Token secrets (without "Bearer "). */
  secrets: Record<Person, string> & { twinOwner: string; stranger: string; expired: string; revoked: string };
}

export async function seedIsolationScene(app: INestApplication): Promise<IsolationScene> {
  const [home, twin, stranger] = [uniqueTeamId(), uniqueTeamId(), uniqueTeamId()];
  const users = Object.fromEntries(PEOPLE.map((p) => [p, `${home}-${p}`])) as Record<Person, string>;
  const strangerUser = `${stranger}-owner`;
  await importDocument(app, {
    workspaces: [home, twin, stranger].map((id) => ({ id, name: `Workspace ${id}` })),
    users: [...PEOPLE.map((p) => ({ id: users[p], name: `The ${p}` })), { id: strangerUser, name: 'A stranger' }],
    members: [
      ...[home, twin].flatMap((team_id) => PEOPLE.map((p) => ({ team_id, user_id: users[p], role: ROLE_OF[p] }))),
      { team_id: stranger, user_id: strangerUser, role: 'owner' },
    ],
    projects: [home, twin, stranger].map((team_id) => ({ team_id, id: PROJECT_ID, title: `Docs of ${team_id}` })),
    note_templates: [home, twin].flatMap((team_id) =>
      Object.values(TEMPLATE_KINDS).map(({ id, owner, shared }) => ({
        team_id,
        id,
        owner_id: owner && users[owner],
        title: `Template ${id}`,
        context: `Context of ${team_id}`,
        sections: [],
        ai_actions: false,
        is_shared: shared,
      })),
    ),
    pages: [home, twin].map((team_id) => ({
      team_id,
      id: PAGE_ID,
      project_id: PROJECT_ID,
      parent_page_id: '',
      title: `Page of ${team_id}`,
      owner_id: users.owner,
      archived: false,
      members: [{ user_id: users.guestListed, role: 'admin' }],
    })),
    tags: [home, twin].flatMap((team_id) =>
      [...TAG_IDS, ...DELETABLE_TAG_IDS].map((id) => ({
        team_id,
        id,
        project_id: null,
        name: `Tag ${id}`,
        color: 'red',
      })),
    ),
    cards: [home, twin].map((team_id) => ({
      team_id,
      id: CARD_ID,
      project_id: PROJECT_ID,
      title: `Card of ${team_id}`,
      owner_id: users.owner,
      members: [users.owner, users.guestListed],
      tags: [],
    })),
  });

  const tokens = app.get(TokensService);
  const issue = async (teamId: string, userId: string, expiresAt: Date | null = null) =>
    tokens.create({ teamId, userId, expiresAt });
  const own = await Promise.all(PEOPLE.map(async (p) => [p, (await issue(home, users[p])).token] as const));
  const expired = await issue(home, users.owner, new Date(Date.now() - 60_000));
  const revoked = await issue(home, users.owner);
  await tokens.revoke(revoked.id, home);
  return {
    home,
    twin,
    stranger,
    users,
    strangerUser,
    secrets: {
      ...(Object.fromEntries(own) as Record<Person, string>),
      twinOwner: (await issue(twin, users.owner)).token,
      stranger: (await issue(stranger, strangerUser)).token,
      expired: expired.token,
      revoked: revoked.token,
    },
  };
}

/**
 * Everything a request could change in a workspace: its export, plus the update stamps the export
 * leaves out (a refused request must not even touch time_updated or user_updated).
 */
export async function snapshot(app: INestApplication, teamId: string) {
  const exported = await app.get(ExportService).exportWorkspace(teamId);
  const stamps = await app.get(DataSource).query(
    `SELECT 'page' AS kind, id::text AS id, time_updated, updated_by FROM pages WHERE team_id = $1
     UNION ALL SELECT 'card', id::text, time_updated, updated_by FROM cards WHERE team_id = $1
     UNION ALL SELECT 'template', id, time_updated, updated_by FROM note_templates WHERE team_id = $1
     ORDER BY 1, 2`,
    [teamId],
  );
  return {
    exported,
    stamps: stamps as Array<{ kind: string; id: string; time_updated: Date; updated_by: { user_id?: string } }>,
  };
}
export type Snapshot = Awaited<ReturnType<typeof snapshot>>;
