import { INestApplicationContext } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { ImportService } from '../../src/import/import.service';

export const ROLE_NAMES = ['owner', 'admin', 'member', 'guest', 'viewer'] as const;
export type RoleName = (typeof ROLE_NAMES)[number];

/** A workspace of its own for one test file: a user and a token per role, plus OAuth and agent tokens. */
export interface Workspace {
  teamId: string;
  projectId: string;
  users: Record<RoleName, string>;
  /** Authorization header values. */
  auth: Record<RoleName | 'oauth' | 'agent', string>;
}

export function uniqueTeamId(): string {
  return `w${Date.now().toString(36)}${randomBytes(4).toString('hex')}`;
}

/** Seeds through the same import path as `npm run cli -- import`. */
export async function importDocument(app: INestApplicationContext, document: object): Promise<void> {
  await app.get(ImportService).importDocument(document);
}

export async function seedWorkspace(app: INestApplicationContext): Promise<Workspace> {
  const teamId = uniqueTeamId();
  const users = Object.fromEntries(ROLE_NAMES.map((role) => [role, `${teamId}-${role}`])) as Record<RoleName, string>;
  const secret = (name: string) => `secret-${teamId}-${name}-${randomBytes(8).toString('hex')}`;
  const secrets = Object.fromEntries([...ROLE_NAMES, 'oauth', 'agent'].map((n) => [n, secret(n)])) as Record<
    keyof Workspace['auth'],
    string
  >;
  await importDocument(app, {
    workspaces: [{ id: teamId, name: `Workspace ${teamId}` }],
    users: ROLE_NAMES.map((role) => ({ id: users[role], name: `The ${role}`, email: `${role}@${teamId}.example.com` })),
    members: ROLE_NAMES.map((role) => ({ team_id: teamId, user_id: users[role], role })),
    tokens: [
      ...ROLE_NAMES.map((role) => ({
        id: `tok-${role}`,
        team_id: teamId,
        user_id: users[role],
        token: secrets[role],
        expires_at: null,
        actor: { type: 'user' },
      })),
      {
        id: 'tok-oauth',
        team_id: teamId,
        user_id: users.member,
        token: secrets.oauth,
        expires_at: null,
        actor: { type: 'user', source: { type: 'oauth', client_id: 'client-42' } },
      },
      {
        id: 'tok-agent',
        team_id: teamId,
        user_id: users.member,
        token: secrets.agent,
        expires_at: null,
        actor: { type: 'robot', source: { type: 'agent', agent_id: 'agent-7', on_behalf_of: users.owner } },
      },
    ],
    projects: [{ team_id: teamId, id: '1', title: 'Docs' }],
  });
  const auth = Object.fromEntries(Object.entries(secrets).map(([n, s]) => [n, `Bearer ${s}`])) as Workspace['auth'];
  return { teamId, projectId: '1', users, auth };
}
