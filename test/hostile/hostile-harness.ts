import { INestApplication } from '@nestjs/common';
import fc from 'fast-check';
import { isUtf8 } from 'node:buffer';
import { isDeepStrictEqual } from 'node:util';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { PROJECT_ID_SHAPE } from '../../src/common/id-shapes';
import { CATALOGUE } from '../../src/errors/catalogue';
import { ExportService } from '../../src/export/export.service';
import { ImportService } from '../../src/import/import.service';
import { importDocument, Workspace } from '../support/fixtures';
import { Scene, useScene } from '../support/scene';
import { TestApp } from '../support/test-app';
import { CURRENT_ETAG, headerAsReceived, isValidKey, MATCHING_IF_MATCH, NEVER_MATCHING_IF_MATCH } from './arbitraries';
import { HostileRuns } from './hostile-runs';

export type Method = 'get' | 'patch' | 'post' | 'put' | 'delete';

/** One generated request, printable as fast-check's counterexample and replayable as a regression. */
export interface HostileRequest {
  method: Method;
  path: string;
  headers: Record<string, string | undefined>;
  /** Raw body text, sent as its UTF-8 (or, with `latin1`, Latin-1) bytes; absent: no body at all. */
  body?: string;
  /** With a known Content-Encoding: compress the bytes with it (false sends them as they are: corrupt). */
  compress?: boolean;
  /** Encode the body as Latin-1 instead of UTF-8 (non-ASCII text then is not valid UTF-8). */
  latin1?: boolean;
}

const CODINGS: Partial<Record<string, (b: Buffer) => Buffer>> = {
  gzip: gzipSync,
  'x-gzip': gzipSync,
  deflate: deflateSync,
  br: brotliCompressSync,
};

/** The bytes on the wire for a request's body. */
export function bodyBytes(req: HostileRequest): Buffer | undefined {
  if (req.body === undefined) return undefined;
  const bytes = Buffer.from(req.body, req.latin1 ? 'latin1' : 'utf8');
  const coding = CODINGS[(req.headers['Content-Encoding'] ?? '').trim().toLowerCase()];
  return coding && req.compress !== false ? coding(bytes) : bytes;
}

/** Sends it through the test app's client, so the OpenAPI check runs on the response too. */
export async function send(t: TestApp, req: HostileRequest): Promise<Response> {
  let test = t.http[req.method](req.path);
  for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) test = test.set(name, value);
  const bytes = bodyBytes(req);
  // Identity serializer: superagent would otherwise JSON-encode (or form-encode) a Buffer by its content type.
  if (bytes !== undefined) test = test.serialize((b: unknown) => b as string).send(bytes);
  return test;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SEC = /^SEC:\d{3}-\d{5}$/;
const LEAKS = new RegExp(
  'SELECT |INSERT |UPDATE |DELETE FROM|QueryFailedError|violates|' +
    '\\bat .+\\(.+:\\d+:\\d+\\)|node_modules|TypeError|undefined is not',
);
const KNOWN = new Set(Object.values(CATALOGUE).map((c) => `${c.status} ${c.sec}`));

/**
 * The contract for every response: 2xx, 304 with no body, or the error body with code == status, a catalogue sec and
 * a message that leaks nothing; never a 5xx (the database is up, so even a 503 is a finding).
 */
export function expectContract(res: Response, secrets: readonly string[] = []): void {
  if (res.status >= 200 && res.status < 300) return;
  // A GET that sent If-None-Match (junk may be `*`): no body. The OpenAPI check allows 304 on GETs only.
  if (res.status === 304) return expect(res.text ?? '').toBe('');
  expect(res.status).toBeGreaterThanOrEqual(400);
  expect(res.status).toBeLessThan(500);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.body).toEqual({
    error: {
      id: expect.stringMatching(UUID),
      code: res.status,
      sec: expect.stringMatching(SEC),
      message: expect.any(String),
      date: expect.any(Number),
    },
  });
  const { sec, message, date } = res.body.error;
  expect(KNOWN.has(`${res.status} ${sec}`)).toBe(true);
  expect(message.length).toBeGreaterThan(0);
  expect(message).not.toMatch(LEAKS);
  for (const secret of secrets) expect(message).not.toContain(secret);
  expect(Math.abs(date - Date.now())).toBeLessThan(60_000);
  if (res.status === 401) expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
}

/** The robots directives a shared page accepts, as the contract lists them (the tests' own copy). */
export const ROBOTS = [
  'all',
  'none',
  'index',
  'noindex',
  'follow',
  'nofollow',
  'noarchive',
  'nosnippet',
  'noimageindex',
  'notranslate',
];

/** Words the service's own messages list (allowed values): a body may hold them too. */
const VOCABULARY = new Set([
  'image',
  'icon',
  'emoji',
  'sans',
  'serif',
  'mono',
  'fill',
  'contain',
  'cover',
  'scale-down',
  ...ROBOTS,
  'application/json',
]);

/** Every key and every string value in a parsed JSON value. */
function keysAndStrings(
  value: unknown,
  keys = new Set<string>(),
  strings = new Set<string>(),
): { keys: Set<string>; strings: Set<string> } {
  const stack = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') strings.add(v);
    else if (v && typeof v === 'object') {
      for (const [k, child] of Object.entries(v)) {
        if (!Array.isArray(v)) keys.add(k);
        stack.push(child);
      }
    }
  }
  return { keys, strings };
}

function parsed(body: string | undefined): unknown {
  try {
    return body === undefined ? undefined : JSON.parse(body);
  } catch {
    return undefined;
  }
}

/**
 * What a 400 for a body says: a field error names a field of the body ("names the offending field") or one it lacks,
 * and no error message repeats a body value (ids and the service's own vocabulary aside).
 */
export function expectMessageAboutBody(req: HostileRequest, res: Response): void {
  if (res.status < 400 || !res.body?.error) return;
  const body = parsed(req.body);
  if (!body || typeof body !== 'object') return;
  const { keys, strings } = keysAndStrings(body);
  const { sec, message } = res.body.error as { sec: string; message: string };
  if (
    (sec === 'SEC:000-00001' || sec === 'SEC:000-00002') &&
    !/^The (request )?body/.test(message) &&
    !message.startsWith('(body)')
  ) {
    // A required field the body left out is named as missing; a query string's error names its parameter.
    const missing = /^([a-z_]+) /.exec(message)?.[1];
    const namesMissing = missing !== undefined && !(missing in (body as Record<string, unknown>));
    const parameters = [...new URL(req.path, 'http://localhost').searchParams.keys()];
    expect(namesMissing || [...keys, ...parameters].some((key) => message.includes(key))).toBe(true);
  }
  for (const value of strings) {
    if (value.length < 8 || /^\s*\d+\s*$/.test(value) || keys.has(value)) continue;
    if (res.status === 404 && PROJECT_ID_SHAPE.pattern.test(value)) continue; // a 404 names the id it did not find
    if (safeDecode(req.path).includes(value)) continue; // the message may name the path, which holds it too
    if (value.split(/[\s,]+/).every((word) => word === '' || VOCABULARY.has(word))) continue;
    expect(message).not.toContain(value);
  }
}

/** The body as the server reads it: its bytes as UTF-8 (a Latin-1 body it accepted was valid UTF-8). */
/** The last path segment of a request, decoded: the id it asked for. */
export function requestedId(req: HostileRequest): string {
  return decodeURIComponent(req.path.split('/').pop()!);
}

export function serverView(req: HostileRequest): Record<string, unknown> {
  const bytes = Buffer.from(req.body ?? '', req.latin1 ? 'latin1' : 'utf8');
  if (bytes.length === 0) return {}; // no body: change nothing
  return JSON.parse(JSON.stringify(JSON.parse(bytes.toString('utf8'))));
}

/** A route that reads a JSON body never accepts one whose bytes are not UTF-8. */
export function expectUtf8Only(req: HostileRequest, res: Response): void {
  if (req.body === undefined || !req.latin1) return;
  if (!isUtf8(Buffer.from(req.body, 'latin1'))) expect(res.status).toBeGreaterThanOrEqual(400);
}

/** Ids every hostile workspace has (in `ws` and, with the same ids, in `other`). */
export const SEEDED = {
  templates: {
    mine: 'mine',
    mineShared: 'mine-shared',
    ownersPrivate: 'owners-private',
    ownersShared: 'owners-shared',
    builtIn: 'built-in',
  },
  pages: ['1', '2', '3', '4', '5', '6', '7', '8'],
  tags: ['1', '2', '3', '4', '5', '6'],
  /** More workspace-wide tags, so that attaching keeps changing something for a while. */
  moreTags: Array.from({ length: 30 }, (_, n) => String(n + 10)),
  cards: ['1', '2', '3'],
};

/**
 * Templates of every ownership; two projects of pages (a small tree, guest on some, one archived);
 * tags workspace-wide and per project; cards with and without the guest.
 */
export async function seedHostileWorkspace(app: INestApplication, ws: Workspace): Promise<void> {
  const team_id = ws.teamId;
  const { member, owner, guest } = ws.users;
  const template = (id: string, owner_id: string | null, is_shared: boolean) => ({
    team_id,
    id,
    owner_id,
    title: `Template ${id}`,
    context: 'Summarise',
    sections: [{ title: 'One', description: '' }],
    ai_actions: false,
    is_shared,
  });
  const page = (id: string, project_id: string, parent_page_id: string, extra: object = {}) => ({
    team_id,
    id,
    project_id,
    parent_page_id,
    title: `Page ${id}`,
    owner_id: owner,
    archived: false,
    members: [] as object[],
    ...extra,
  });
  const withGuest = { members: [{ user_id: guest, role: 'member' }] };
  await importDocument(app, {
    projects: [{ team_id, id: '2', title: 'Second' }],
    note_templates: [
      template(SEEDED.templates.mine, member, false),
      template(SEEDED.templates.mineShared, member, true),
      template(SEEDED.templates.ownersPrivate, owner, false),
      template(SEEDED.templates.ownersShared, owner, true),
      template(SEEDED.templates.builtIn, null, true),
    ],
    pages: [
      page('1', '1', '', withGuest),
      page('2', '1', '1', withGuest),
      page('3', '1', '1'),
      page('4', '1', '2'),
      page('5', '1', ''),
      page('6', '2', '', withGuest),
      page('7', '2', '6'),
      page('8', '1', '', { archived: true }),
    ],
    tags: [
      ...SEEDED.tags.map((id, n) => ({
        team_id,
        id,
        project_id: [null, null, '1', '1', '2', '2'][n],
        name: `Tag ${id}`,
        color: 'red',
      })),
      ...SEEDED.moreTags.map((id) => ({ team_id, id, project_id: null, name: `Tag ${id}`, color: 'blue' })),
    ],
    cards: [
      { team_id, id: '1', project_id: '1', title: 'With guest', owner_id: owner, members: [owner, guest], tags: [] },
      { team_id, id: '2', project_id: '1', title: 'Without guest', owner_id: owner, members: [owner], tags: ['1'] },
      { team_id, id: '3', project_id: '2', title: 'Second project', owner_id: owner, members: [guest], tags: [] },
    ],
  });
}

/** The workspace as the product sees it: its export, in the import format. */
export async function workspaceExport(app: INestApplication, teamId: string): Promise<unknown> {
  return app.get(ExportService).exportWorkspace(teamId);
}

/**
 * The export is the import format, and "such a document re-imports into this database": whatever
 * accepted writes left behind must import again and come back out the same.
 */
export async function expectExportReimports(app: INestApplication, teamId: string): Promise<void> {
  const exported = await workspaceExport(app, teamId);
  await app.get(ImportService).importDocument(exported);
  expect(await workspaceExport(app, teamId)).toEqual(exported);
}

const TEAM_TABLES = [
  'members',
  'tokens',
  'projects',
  'note_templates',
  'note_template_favourites',
  'pages',
  'page_archives',
  'page_members',
  'page_bookmarks',
  'page_watchers',
  'page_comments',
  'tags',
  'cards',
  'card_members',
  'card_tags',
];
const rows = (table: string, where: string, row: string) =>
  `(SELECT string_agg(${row}, ',' ORDER BY ${row}) FROM ${table} t WHERE ${where})`;
const everyTable = (row: string) =>
  [rows('workspaces', 'id = $1', row), ...TEAM_TABLES.map((table) => rows(table, 'team_id = $1', row))].join(',\n    ');
const FINGERPRINT = `
  SELECT md5(concat_ws('|', ${everyTable('t::text')})) AS full,
         md5(concat_ws('|', ${everyTable(`(to_jsonb(t) - 'time_updated' - 'updated_by')::text`)})) AS content`;

/**
 * Digests of every row of every table that belongs to the workspace: `full` over every column,
 * `content` leaving out who updated a row and when. One query, cheap enough for every request.
 */
export async function workspaceFingerprint(
  app: INestApplication,
  teamId: string,
): Promise<{ full: string; content: string }> {
  const [fingerprint] = await app.get(DataSource).query(FINGERPRINT, [teamId]);
  return fingerprint;
}

/**
 * Proves that rejected requests change nothing, for the workspaces it watches.
 * - After every write request, each watched workspace its path names gets a fingerprint (a digest of
 *   all its rows, every column); a refused request must leave it as it was, and so must a GET.
 * - An accepted write may change the workspace it names; if its content did not change, who updated
 *   it and when must not have either ("an update that changes nothing leaves time_updated and
 *   user_updated as they were").
 * - Every `sample`-th request, whatever it is, every watched workspace is also exported (in the
 *   import format, the product's own view) before and after it: a refusal or a GET must leave the
 *   export equal, and every fingerprint is checked.
 * - Every `sample`-th accepted write that changed content, the workspace's export must import again
 *   as itself (an accepted write must not leave a state the CLI cannot carry). That runs at the next
 *   `before()`, so that a spec's own checks of the write (a GET of it) come first.
 */
export class ChangeTracker {
  private readonly last = new Map<string, { full: string; content: string }>();
  private exportsBefore: Map<string, unknown> | undefined;
  private n = 0;
  private changes = 0;
  private readonly reimportDue = new Set<string>();
  readonly counts = {
    requests: 0,
    accepted: 0,
    rejected: 0,
    fingerprintsCompared: 0,
    exportsCompared: 0,
    reimports: 0,
    byStatus: {} as Record<number, number>,
  };

  constructor(
    private readonly app: INestApplication,
    private readonly teamIds: readonly string[],
    private readonly sample = 10,
  ) {}

  async start(): Promise<void> {
    for (const id of this.teamIds) this.last.set(id, await workspaceFingerprint(this.app, id));
  }

  /** Call before sending: runs a due re-import; on sampled requests, exports every watched workspace. */
  async before(): Promise<void> {
    for (const id of this.reimportDue) {
      await expectExportReimports(this.app, id);
      this.counts.reimports++;
      this.last.set(id, await workspaceFingerprint(this.app, id));
    }
    this.reimportDue.clear();
    this.exportsBefore = undefined;
    if (this.n++ % this.sample !== 0) return;
    this.exportsBefore = new Map();
    for (const id of this.teamIds) this.exportsBefore.set(id, await workspaceExport(this.app, id));
  }

  /** Records the response and checks the workspaces; says whether an accepted write changed content. */
  async after(req: HostileRequest, res: Response): Promise<{ changed: boolean }> {
    this.counts.requests++;
    this.counts.byStatus[res.status] = (this.counts.byStatus[res.status] ?? 0) + 1;
    const accepted = res.status >= 200 && res.status < 300;
    if (accepted) this.counts.accepted++;
    else this.counts.rejected++;
    const named = new Set(req.path.split(/[/?]/).map(safeDecode));
    let changed = false;
    for (const id of this.teamIds) {
      const exported = this.exportsBefore?.get(id);
      if (!named.has(id) && exported === undefined) continue;
      const mayChange = accepted && req.method !== 'get' && named.has(id);
      const before = this.last.get(id)!;
      const now = await workspaceFingerprint(this.app, id);
      this.last.set(id, now);
      this.counts.fingerprintsCompared++;
      if (exported !== undefined && !mayChange) {
        expect(await workspaceExport(this.app, id)).toEqual(exported);
        this.counts.exportsCompared++;
      }
      if (!mayChange || now.content === before.content) expect(now).toEqual(before);
      if (now.content === before.content) continue;
      changed = true;
      if (this.changes++ % this.sample === 0) this.reimportDue.add(id);
    }
    this.exportsBefore = undefined;
    return { changed };
  }
}

/** Whether a write's answer is a kept one, replayed for its Idempotency-Key. */
export const isReplay = (res: Response) => res.headers['idempotent-replayed'] === 'true';

/** The resource a write path changes: the page of an archive, the card of a tag attach. */
const resourcePath = (path: string) => path.replace(/\/(tags|archive)$/, '');

/**
 * The request as sent: a generated If-Match that names the resource's current ETag gets the one a GET by the
 * workspace's member shows now (or one that names nothing, when that GET is refused).
 */
async function withCurrentEtag(s: Scene, req: HostileRequest): Promise<{ req: HostileRequest; readable: boolean }> {
  const ifMatch = req.headers['If-Match'];
  if (ifMatch === undefined || !ifMatch.includes(CURRENT_ETAG)) return { req, readable: false };
  const read = await send(s.t, {
    method: 'get',
    path: resourcePath(req.path),
    headers: { Authorization: s.ws.auth.member },
  });
  const readable = read.status === 200 && typeof read.headers.etag === 'string';
  const etag = readable ? read.headers.etag : '"none"';
  return { req: { ...req, headers: { ...req.headers, 'If-Match': ifMatch.split(CURRENT_ETAG).join(etag) } }, readable };
}

/**
 * The rules of If-Match and Idempotency-Key, checked on every hostile write (decisions.md, "Conditional writes and
 * safe retries"), with what each key first answered:
 * - an invalid key is refused (a 400, unless an earlier check answers: 401, 403, 413, 415, an unknown route),
 *   never a 2xx, 404 of a resource, 409, 412 or 422;
 * - 412 only with an If-Match, never for one that matches an existing resource (`*`, its current ETag);
 *   an If-Match that cannot match (a weak tag, garbage) never gets a 2xx, unless replayed or a creation (201);
 * - a replay carries a valid key and is the answer (status, body bytes, ETag) the key first got; a key whose first
 *   answer is kept is never run again for the same caller and request; a 422 reuse names a key used before;
 *   sent one at a time, no request is ever told that its key is in use (409).
 */
export class ConditionalRules {
  private readonly kept = new Map<string, Array<{ caller: string; request: string; answer: unknown }>>();

  check(generated: HostileRequest, sent: HostileRequest, currentKnown: boolean, res: Response): void {
    if (sent.method === 'get') return;
    const ok = res.status >= 200 && res.status < 300;
    const replayed = isReplay(res);
    const sec: string | undefined = res.body?.error?.sec;
    const ifMatch = generated.headers['If-Match'];
    const rawKey = sent.headers['Idempotency-Key'];
    const seen = { status: res.status, sec, replayed, ifMatch, sentIfMatch: sent.headers['If-Match'], key: rawKey };
    if (res.status === 412) Object.assign(seen, { message: res.body?.error?.message });
    const inUse = res.status === 409 && sec === CATALOGUE.IDEMPOTENCY_KEY_IN_USE.sec;
    expect({ ...seen, inUse }).toEqual({ ...seen, inUse: false });
    if (res.status === 412) {
      expect({ ...seen, ifMatchSent: ifMatch !== undefined }).toEqual({ ...seen, ifMatchSent: true });
      expect(sec).toBe(CATALOGUE.PRECONDITION_FAILED.sec);
    }
    if (ifMatch !== undefined && MATCHING_IF_MATCH.includes(ifMatch) && (ifMatch === '*' || currentKnown)) {
      expect({ ...seen, preconditionFailed: res.status === 412 }).toEqual({ ...seen, preconditionFailed: false });
    }
    // A creation (201) has no existing resource for If-Match to name: it does not ask If-Match.
    if (ifMatch !== undefined && NEVER_MATCHING_IF_MATCH.includes(ifMatch) && !replayed && res.status !== 201) {
      expect({ ...seen, accepted: ok }).toEqual({ ...seen, accepted: false });
    }
    if (rawKey === undefined) {
      expect({ ...seen, replayedWithoutKey: replayed }).toEqual({ ...seen, replayedWithoutKey: false });
      return;
    }
    if (!isValidKey(rawKey)) {
      const refusedFirst = !ok && ![409, 412, 422].includes(res.status);
      const notAResource404 = res.status !== 404 || sec === CATALOGUE.ROUTE_NOT_FOUND.sec;
      expect({ ...seen, refusedFirst, notAResource404 }).toEqual({
        ...seen,
        refusedFirst: true,
        notAResource404: true,
      });
      return;
    }
    const key = headerAsReceived(rawKey);
    const answer = { status: res.status, body: res.text ?? '', etag: res.headers.etag };
    const caller = sent.headers.Authorization ?? '';
    const request = JSON.stringify([sent.method, sent.path, sent.body, sent.headers['Content-Encoding'], sent.latin1]);
    const earlier = this.kept.get(key) ?? [];
    if (replayed) {
      // The kept answer it repeats, to the byte: an equal one, or (for the failure's diff) the same request's.
      const same =
        earlier.find((e) => isDeepStrictEqual(e.answer, answer)) ?? earlier.find((e) => e.request === request);
      expect({ ...seen, answer }).toEqual({ ...seen, answer: same?.answer });
    } else if (ok) {
      const ranBefore = earlier.some((e) => e.caller === caller && e.request === request);
      expect({ ...seen, ranBefore }).toEqual({ ...seen, ranBefore: false });
      this.kept.set(key, [...earlier, { caller, request, answer }]);
    }
    if (sec === CATALOGUE.IDEMPOTENCY_KEY_REUSED.sec) {
      expect({ ...seen, usedBefore: earlier.length > 0 }).toEqual({ ...seen, usedBefore: true });
    }
  }
}

/** The auth header values of a workspace that must never show up in an error message. */
export function secretsOf(...workspaces: Workspace[]): string[] {
  return workspaces.flatMap((ws) => Object.values(ws.auth).map((a) => a.slice('Bearer '.length)));
}

/** A route file's scene, with the hostile seed, its ChangeTracker, and the checks every request gets. */
export interface HostileScene {
  s: Scene;
  /** Set before the file's first test (the scene's workspaces do not exist before that). */
  tracker: ChangeTracker;
  /**
   * Sends a request with the checks every hostile request gets: the tracker around it, the response
   * contract (no secret of either workspace in a message), what a message says about the body and,
   * unless it is a PUT (whose body is not read), that a body which is not UTF-8 is refused, and the rules of
   * If-Match and Idempotency-Key (ConditionalRules). Returns the response for the route's own checks.
   */
  sendChecked(this: void, req: HostileRequest): Promise<Response>;
  /** A property over `values` of `numRuns` runs (HostileRuns.assert): it stops at its time limit, and with its test. */
  assert<T>(
    this: void,
    values: fc.Arbitrary<T>,
    predicate: (value: T) => Promise<unknown>,
    numRuns: number,
  ): Promise<void>;
}

/**
 * The setup every route file shares: the scene, the hostile seed in `ws` (and in `other`, unless
 * `withOther` is false) and a ChangeTracker that watches the seeded workspaces. Each property starts
 * from the workspaces as they are (a failed one may have left a change unrecorded). With
 * HOSTILE_VERBOSE=1 the file's tracker counts are printed at the end, under `name`.
 */
export function useHostileScene(name: string, { withOther = true } = {}): HostileScene {
  const s = useScene();
  const conditional = new ConditionalRules();
  const runs = new HostileRuns();
  const hostile: HostileScene = {
    s,
    tracker: undefined as unknown as ChangeTracker,
    async sendChecked(req) {
      await hostile.tracker.before(); // its re-import gives the resources new versions: read the ETag after it
      const sent = await withCurrentEtag(s, req);
      const res = await send(s.t, sent.req);
      expectContract(res, secretsOf(s.ws, s.other));
      expectMessageAboutBody(req, res);
      if (req.method !== 'put') expectUtf8Only(req, res);
      conditional.check(req, sent.req, sent.readable, res);
      await hostile.tracker.after(req, res);
      return res;
    },
    assert: (values, predicate, numRuns) => runs.assert(values, predicate, numRuns),
  };
  beforeAll(async () => {
    const seeded = withOther ? [s.ws, s.other] : [s.ws];
    for (const ws of seeded) await seedHostileWorkspace(s.t.app, ws);
    hostile.tracker = new ChangeTracker(
      s.t.app,
      seeded.map((ws) => ws.teamId),
    );
  });
  beforeEach(() => {
    runs.begin();
    return hostile.tracker.start();
  });
  afterEach(() => runs.end(), HostileRuns.endTimeout);
  afterAll(() => {
    if (process.env.HOSTILE_VERBOSE === '1') console.log(`${name}: ${JSON.stringify(hostile.tracker.counts)}`);
  });
  return hostile;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
