import pg, { Client } from 'pg';
import type { Response, Test } from 'supertest';
import { ATTACH_TAGS } from '../../src/cards/card-queries';
import { WRITE_TEMPLATE } from '../../src/notes/note-template-queries';
import { WRITE_PAGE } from '../../src/pages/page-queries';
import type { WriteCall } from '../../src/write-path/write-call';
import type { WriteParams, WriteStatement } from '../../src/write-path/write-statement';
import { freshId } from '../cards/card-fixtures';
import { seedTemplate } from '../notes/note-template-fixtures';
import { pageId, seedPages } from '../pages/page-fixtures';
import { importDocument, RoleName, Workspace } from '../support/fixtures';
import { LOCK_WAITERS, SESSION_ID } from '../support/citus';
import type { Scene } from '../support/scene';
import { testDatabaseUrl } from '../support/test-config';

/** A strong entity tag as RFC 9110 spells one: no `W/`, quoted, no quote or control character inside. */
export const STRONG_ETAG = /^"[\x21\x23-\x7e\x80-\xff]*"$/;

export type Auth = RoleName | 'oauth' | 'agent';
export type WriteName = 'template' | 'page' | 'archive' | 'tags';
export const WRITE_NAMES: readonly WriteName[] = ['template', 'page', 'archive', 'tags'];

/** The headers of a write, by their meaning; absent ones are not sent. */
export interface WriteOptions {
  auth?: Auth;
  ifMatch?: string;
  key?: string;
  /** The body; `undefined` sends the subject's own write body, `null` sends none. */
  body?: object | null;
  /** The write's path instead of the subject's (another resource of the same kind). */
  path?: string;
}

/**
 * One resource freshly seeded for one test, and the write under test on it: the members' (shared) template,
 * a page the guest is a member of, the same page's archive, a card's tags.
 */
export interface Subject {
  name: WriteName;
  ws: Workspace;
  method: 'patch' | 'put' | 'post';
  /** The write's path. */
  path: string;
  /** The GET of what the write changes (the page for the archive, the card for the tags). */
  readPath: string;
  /** The write's status on success. */
  status: 200 | 204;
  /** The prepared statement (its pg config name) that applies the write with an idempotency key. */
  statement: string;
  /** The forms of that statement a write without a key runs (announcer.ts). */
  keyless: string[];
  /** The table and primary key of the row the write locks. */
  row: { table: string; id: string };
  /** A body that really changes the seeded resource (applied again, it changes nothing). */
  body: object | undefined;
  /** Another body for the same route, as a different request. */
  otherBody: object;
  /** Bodies of `n` writes that each change the seeded resource, to its own distinct state. */
  rivalBodies(n: number): object[];
  /** Another real change of the resource, by a request without any of the new headers. */
  alter(): Promise<Response>;
  /** Sends the write. */
  write(options?: WriteOptions): Test;
  /** GETs the resource (as the member unless said otherwise). */
  read(auth?: Auth, headers?: Record<string, string>): Test;
}

/** The resource object of a GET or write response, without the parts that differ per caller or request. */
export function stored(res: { status?: number; body?: unknown }): Record<string, unknown> {
  const { note_template, page, card } = (res.body ?? {}) as Record<string, Record<string, unknown> | undefined>;
  const resource = note_template ?? page ?? card;
  if (!resource) throw new Error(`No resource in ${res.status} ${JSON.stringify(res.body)}`);
  const { collaboration, bookmarked, is_bookmarked, is_watching, is_favourited, ...rest } = resource;
  void [collaboration, bookmarked, is_bookmarked, is_watching, is_favourited];
  return rest;
}

/** The response's ETag, asserted strong. */
export function etagOf(res: Response): string {
  const etag = res.headers.etag;
  expect({ status: res.status, etag }).toEqual({ status: res.status, etag: expect.stringMatching(STRONG_ETAG) });
  return etag;
}

/** What a GET shows of the resource now: its ETag and its stored fields. */
export async function snapshot(subject: Subject): Promise<{ etag: string; resource: Record<string, unknown> }> {
  const res = await subject.read().expect(200);
  return { etag: etagOf(res), resource: stored(res) };
}

/** Tags of a card scene of its own: enough workspace-wide ones for a rival each. */
const CARD_TAGS = 10;

/** Seeds a fresh resource for the write `name` in the scene's workspace. */
export async function seedSubject(s: Scene, name: WriteName): Promise<Subject> {
  const { t, ws } = s;
  const as = (auth: Auth) => ws.auth[auth];
  const base = { name, ws };
  const send = (method: Subject['method'], defaultPath: string, defaultBody: object | undefined) => {
    return ({ auth = 'member', ifMatch, key, body, path = defaultPath }: WriteOptions = {}): Test => {
      let test = t.http[method](path).set('Authorization', as(auth));
      if (ifMatch !== undefined) test = test.set('If-Match', ifMatch);
      if (key !== undefined) test = test.set('Idempotency-Key', key);
      const sent = body === undefined ? defaultBody : body;
      return sent === null || sent === undefined ? test : test.send(sent);
    };
  };
  const reader =
    (path: string) =>
    (auth: Auth = 'member', headers: Record<string, string> = {}) =>
      t.http.get(path).set({ Authorization: as(auth), ...headers });

  if (name === 'template') {
    const id = await seedTemplate(t.app, ws, { is_shared: true, favourited_by: [ws.users.member] });
    const path = `/v1/${ws.teamId}/notes/templates/${id}`;
    const write = send('patch', path, { title: 'Retitled' });
    return {
      ...base,
      method: 'patch',
      path,
      readPath: path,
      status: 200,
      ...formsOf(WRITE_TEMPLATE),
      row: { table: 'note_templates', id },
      body: { title: 'Retitled' },
      otherBody: { title: 'Retitled otherwise' },
      rivalBodies: (n) => Array.from({ length: n }, (_, i) => ({ title: `Rival ${i}` })),
      alter: () => write({ body: { context: 'Changed in between' } }).expect(200),
      write,
      read: reader(path),
    };
  }
  if (name === 'page' || name === 'archive') {
    const [id] = await seedPages(t.app, ws, [
      {
        id: pageId(),
        members: [{ user_id: ws.users.guest }],
        bookmarked_by: [ws.users.member],
        watched_by: [ws.users.member],
      },
    ]);
    const readPath = `/v1/${ws.teamId}/pages/${id}`;
    const common = { readPath, status: 200 as const, ...formsOf(WRITE_PAGE), row: { table: 'pages', id } };
    if (name === 'page') {
      const write = send('patch', readPath, { title: 'Retitled' });
      return {
        ...base,
        ...common,
        method: 'patch',
        path: readPath,
        body: { title: 'Retitled' },
        otherBody: { title: 'Retitled otherwise' },
        rivalBodies: (n) => Array.from({ length: n }, (_, i) => ({ title: `Rival ${i}` })),
        alter: () => write({ body: { font: 'mono' } }).expect(200),
        write,
        read: reader(readPath),
      };
    }
    const path = `${readPath}/archive`;
    const patch = send('patch', readPath, undefined);
    return {
      ...base,
      ...common,
      method: 'put',
      path,
      body: undefined,
      otherBody: { reason: 'a body this time' },
      // Every archive of an active page is the same change; what differs is who made it.
      rivalBodies: (n) => Array.from({ length: n }, () => ({})),
      // A new title each time, and the page back from the archive: a real change whether it is archived or not.
      alter: () => patch({ body: { archived: false, title: freshKey('Changed') } }).expect(200),
      write: send('put', path, undefined),
      read: reader(readPath),
    };
  }
  const cardId = freshId();
  const tags = Array.from({ length: CARD_TAGS }, () => freshId());
  await importDocument(t.app, {
    tags: tags.map((id) => ({ team_id: ws.teamId, id, project_id: null, name: `Tag ${id}`, color: 'red' })),
    cards: [
      {
        team_id: ws.teamId,
        id: cardId,
        project_id: ws.projectId,
        title: 'Fix login',
        owner_id: ws.users.owner,
        members: [ws.users.owner, ws.users.guest],
        tags: [],
      },
    ],
  });
  const readPath = `/v1/${ws.teamId}/cards/${cardId}`;
  const path = `${readPath}/tags`;
  const write = send('post', path, { id: tags[0] });
  return {
    ...base,
    method: 'post',
    path,
    readPath,
    status: 204,
    ...formsOf(ATTACH_TAGS),
    row: { table: 'cards', id: cardId },
    body: { id: tags[0] },
    otherBody: { id: tags[1] },
    // Neither the write's own tag nor the one `alter` attaches.
    rivalBodies: (n) => Array.from({ length: n }, (_, i) => ({ id: tags[1 + (i % (CARD_TAGS - 2))] })),
    alter: () => write({ body: { id: tags[CARD_TAGS - 1] } }).expect(204),
    write,
    read: reader(readPath),
  };
}

/** The subject's write path with the resource id replaced by one that names nothing in the workspace. */
export const missingPath = (subject: Subject) =>
  subject.path.replace(`/${subject.row.id}`, subject.name === 'template' ? '/tpl-nothing-here' : '/987654321');

/** The tag ids a card response shows, in order. */
export const tagIds = (resource: Record<string, unknown>) => (resource.tags as Array<{ id: string }>).map((t) => t.id);

/** A subject's statement names: the keyed form, and the forms without a key (a write call has one form). */
const formsOf = <Params extends WriteParams, Row>(write: WriteStatement<Params, Row> | WriteCall<Params, Row>) =>
  'text' in write
    ? { statement: write.name, keyless: [write.name] }
    : { statement: write.keyed.name, keyless: [write.quiet!.name, write.announcing.name] };

/** A key no other test of any run uses. */
let keys = 0;
export const freshKey = (label = 'key') => `${label}-${process.pid}-${Date.now()}-${++keys}`;

/**
 * Counts, while `run` is in progress, the executions of the prepared statements named `names` by every pg
 * client of this process (the app runs in-process): how many times a write was applied, not just answered.
 */
export async function countExecutions<T>(
  names: readonly string[],
  run: () => Promise<T>,
): Promise<{ result: T; counts: Record<string, number> }> {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  const counts = Object.fromEntries(names.map((n) => [n, 0]));
  proto.query = function (this: unknown, ...args: unknown[]) {
    const name = (args[0] as { name?: string } | undefined)?.name;
    if (name !== undefined && name in counts) counts[name]++;
    return original.apply(this, args);
  };
  try {
    return { result: await run(), counts };
  } finally {
    proto.query = original;
  }
}

/**
 * A transaction of the test's own holding the write's row lock: a write of that row waits for it.
 * `waiters()` counts the sessions its lock blocks, so a test can wait for a request to be stuck there.
 */
export async function lockRow(subject: Subject): Promise<{ waiters(): Promise<number>; release(): Promise<void> }> {
  const client = new Client({ connectionString: testDatabaseUrl() });
  await client.connect();
  await client.query('BEGIN');
  // Table names come from the subject list above, never from input.
  await client.query(`SELECT 1 FROM ${subject.row.table} WHERE team_id = $1 AND id = $2 FOR UPDATE`, [
    subject.ws.teamId,
    subject.row.id,
  ]);
  const [{ id }] = (await client.query(SESSION_ID)).rows as Array<{ id: number }>;
  const watcher = new Client({ connectionString: testDatabaseUrl() });
  await watcher.connect();
  return {
    async waiters() {
      const { rows } = await watcher.query(LOCK_WAITERS, [id]);
      return (rows as Array<{ n: number }>)[0].n;
    },
    async release() {
      await client.query('COMMIT');
      await client.end();
      await watcher.end();
    },
  };
}

/**
 * The statuses kept for `key` in the subject's workspace: null while the request that first used it still holds
 * it; all set once it is done with it (its answer is kept, or it gave the key back: no row). Read from the
 * database, since the request itself may have been answered long before.
 */
export async function keyStatuses(subject: Subject, key: string): Promise<Array<number | null>> {
  return (await keyRows<{ status: number | null }>(subject, key, 'SELECT status')).map((row) => row.status);
}

/**
 * Runs `sql` (a statement on `idempotency_keys` that ends in a WHERE clause) on the rows of `key` in the
 * subject's workspace, on a connection of its own; returns the rows it returns.
 */
export async function keyRows<Row>(subject: Subject, key: string, sql: string): Promise<Row[]> {
  const client = new Client({ connectionString: testDatabaseUrl() });
  await client.connect();
  try {
    const where = sql.startsWith('SELECT') ? ' FROM idempotency_keys WHERE' : ' WHERE';
    const { rows } = await client.query(`${sql}${where} team_id = $1 AND key = $2`, [subject.ws.teamId, key]);
    return rows as Row[];
  } finally {
    await client.end();
  }
}
