/**
 * The floor: the least a correct answer needs for each benchmarked request, with node:http and pg only,
 * its own SQL (bench/floor/statements.ts), every statement a named prepared statement. Per request: the
 * token by the SHA-256 of its secret joined with its membership (one SELECT, no cache), the workspace
 * and role check (writers for writes), then
 *   GET template, page, card          one SELECT by key, the row(s) as JSON
 *   PATCH template or page {title}    BEGIN, UPDATE ... RETURNING *, COMMIT
 *   PATCH page {position}             BEGIN, the project's advisory lock, the neighbour keys at the index,
 *   PATCH page {project_id}             one UPDATE (a move carries the subtree), COMMIT
 *   POST card tags {id | ids}         BEGIN, one INSERT ... ON CONFLICT DO NOTHING, COMMIT; 204
 *   DELETE card tag                   BEGIN, one DELETE, the card's version and 404 checks, COMMIT; 204
 *   GET tags ?limit&cursor            one SELECT after the cursor's position (no card counts)
 *   GET pages ?limit&cursor           one SELECT: the tree walk after the cursor's path as of its snapshot
 *                                       (the app's cursor), the pages' own columns without content
 *   GET /p/{alias_id} (no token)      one SELECT through the alias directory, sanitised once per version
 * With `webhooks` (`--webhook` runs), each write that changed something also queues its event before
 * COMMIT and sends it after (announcer.ts).
 *
 * It leaves out: validation beyond the types the SQL needs (no body limit; a page PATCH changes its
 * title or its place, not both), the error catalogue and its bodies (an error is a bare status; hidden
 * and missing are both 404), logging and request ids, helmet, CORS, the rate limit, the request
 * deadline, ETags; the page's counted `position`, the collaboration token, and the joins for members,
 * bookmarks, watchers, comments, favourites and tags' card counts; the card's update stamp on attach;
 * guests (their access depends on per-page and per-card membership: refused); archived pages (not
 * refused from moves); rebalancing long sort keys; skipping a write that changes nothing.
 */
import { createHash } from 'node:crypto';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateKeyBetween } from 'fractional-indexing';
import { Pool, PoolClient } from 'pg';
import { FloorAnnouncer, floorAnnouncer, Queued } from './announcer';
import { FLOOR_PUBLIC_PAGE_HEADERS, floorPublicPage, PublicPageRow } from './public-page';
import * as sql from './statements';

const READERS = new Set(['owner', 'admin', 'member', 'viewer']);
const WRITERS = new Set(['owner', 'admin', 'member']);
/** Tries of a transaction that lost a race: a deadlock, or a page that changed project before its lock was ours. */
const ATTEMPTS = 8;

interface Caller {
  teamId: string;
  userId: string;
  /** JSON text of the actor that writes are stamped with. */
  actor: string;
}

type Row = Record<string, unknown>;
type Body = Record<string, unknown>;

class HttpError extends Error {
  constructor(readonly status: number) {
    super(String(status));
  }
}

/** The event of a page update that changed `changed`. */
const pageUpdated = (id: string, changed: string[], page: Row) => ({
  resource: `page:${id}`,
  type: 'page.updated',
  data: { changed, page },
});

/** The project the page was in changed before the lock was ours: start over. */
class Moved extends Error {}

const run = async <T = Row>(db: Pool | PoolClient, s: sql.Statement, values: unknown[]): Promise<T[]> =>
  (await db.query({ name: s.name, text: s.text, values })).rows as T[];

export interface Floor {
  port: number;
  close(): Promise<void>;
}

export async function startFloor(
  options: { databaseUrl: string; poolSize: number; statementTimeoutMs: number; webhooks?: boolean },
  port = 0,
): Promise<Floor> {
  const pool = new Pool({
    connectionString: options.databaseUrl,
    max: options.poolSize,
    statement_timeout: options.statementTimeoutMs,
    application_name: 'workspace-content-api-floor',
  });
  // An idle connection the server closed is dropped by the pool; without a listener it would end the process.
  pool.on('error', () => undefined);
  const announcer: FloorAnnouncer | null = options.webhooks ? await floorAnnouncer(pool) : null;

  async function authenticate(req: IncomingMessage, teamId: string, write: boolean): Promise<Caller> {
    const header = req.headers.authorization;
    if (!header?.startsWith('Bearer ')) throw new HttpError(401);
    const hash = createHash('sha256').update(header.slice(7)).digest();
    const [token] = await run<{ team_id: string; user_id: string; role: string; actor: string }>(
      pool,
      sql.AUTHENTICATE,
      [hash],
    );
    if (!token) throw new HttpError(401);
    if (token.team_id !== teamId || !(write ? WRITERS : READERS).has(token.role)) throw new HttpError(403);
    return { teamId, userId: token.user_id, actor: token.actor };
  }

  /** `events` collects what the transaction queued (announce), sent once it commits. */
  async function transaction<T>(work: (client: PoolClient, events: Queued[]) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const client = await pool.connect();
      try {
        const events: Queued[] = [];
        await run(client, sql.BEGIN, []);
        const result = await work(client, events);
        await run(client, sql.COMMIT, []);
        if (events.length > 0) announcer!.send(events);
        return result;
      } catch (error) {
        await run(client, sql.ROLLBACK, []).catch(() => undefined);
        if (!(error instanceof Moved || (error as { code?: string }).code === '40P01') || attempt === ATTEMPTS)
          throw error;
      } finally {
        client.release();
      }
    }
  }

  /** Queues a change's event in its transaction, when the run has webhooks (`events`: see transaction). */
  async function announce(
    client: PoolClient,
    events: Queued[],
    caller: Caller,
    event: { resource: string; type: string; data: object },
  ): Promise<void> {
    if (!announcer) return;
    const data = { team_id: caller.teamId, actor: JSON.parse(caller.actor) as object, ...event.data };
    events.push(...(await announcer.queue(client, caller.teamId, event.resource, event.type, data)));
  }

  const one = (rows: Row[]): Row => {
    if (rows.length === 0) throw new HttpError(404);
    return rows[0];
  };

  async function patchPage(caller: Caller, id: string, body: Body): Promise<object> {
    const { title, position, project_id: projectId } = body;
    if (title !== undefined) {
      if (typeof title !== 'string' || position !== undefined || projectId !== undefined) throw new HttpError(400);
      return {
        page: await transaction(async (c, events) => {
          const page = one(await run(c, sql.RENAME_PAGE, [caller.teamId, id, title, caller.actor]));
          await announce(c, events, caller, pageUpdated(id, ['title'], page));
          return page;
        }),
      };
    }
    if (position !== undefined && !(Number.isSafeInteger(position) && (position as number) >= 0))
      throw new HttpError(400);
    if (projectId !== undefined && typeof projectId !== 'string') throw new HttpError(400);
    return {
      page: await transaction((c, events) =>
        place(c, events, caller, id, (position as number | undefined) ?? null, projectId ?? null),
      ),
    };
  }

  /** Puts page `id` at `index` (null: last) among its siblings, or at the root of project `to`. */
  async function place(
    client: PoolClient,
    events: Queued[],
    caller: Caller,
    id: string,
    index: number | null,
    to: string | null,
  ): Promise<Row> {
    const locked = (await run<{ project_id: string }>(client, sql.LOCK_PROJECTS, [caller.teamId, id, to])).map(
      (r) => r.project_id,
    );
    if (locked.length === 0) throw new HttpError(404);
    const offset = index ?? Number.MAX_SAFE_INTEGER;
    const here = one(await run(client, sql.NEIGHBOUR_KEYS, [caller.teamId, id, to, offset])) as {
      project_id: string;
      keys: string[];
      last: string | null;
    };
    if (!locked.includes(here.project_id)) throw new Moved();
    const moving = to !== null && to !== here.project_id;
    if (!moving && index === null) return one(await run(client, sql.READ_PAGE, [caller.teamId, id]));
    // From index 0 the keys are [at, next]; from any other index [before, at].
    const [before, at] = offset === 0 ? [null, here.keys[0] ?? null] : [here.keys[0] ?? null, here.keys[1] ?? null];
    const key = generateKeyBetween(at === null ? here.last : before, at);
    const page = one(
      moving
        ? await run(client, sql.MOVE_PAGE, [caller.teamId, id, to, key, caller.actor])
        : await run(client, sql.REORDER_PAGE, [caller.teamId, id, key, caller.actor]),
    );
    await announce(
      client,
      events,
      caller,
      pageUpdated(id, moving ? ['project_id', 'parent_page_id', 'position'] : ['position'], page),
    );
    return page;
  }

  async function attachTags(caller: Caller, id: string, body: Body): Promise<undefined> {
    const given = [
      ...(body.id === undefined ? [] : [body.id]),
      ...(Array.isArray(body.ids) ? (body.ids as unknown[]) : []),
    ];
    if (given.length === 0 || !given.every((x) => typeof x === 'string')) throw new HttpError(400);
    const ids = [...new Set(given)];
    await transaction(async (client, events) => {
      const [{ usable, attached }] = await run<{ usable: number; attached: string[] }>(client, sql.ATTACH_TAGS, [
        caller.teamId,
        id,
        ids,
      ]);
      if (usable < ids.length) throw new HttpError(404); // rolls back
      if (attached.length > 0)
        await announce(client, events, caller, {
          resource: `card:${id}`,
          type: 'card.tags_added',
          data: { card_id: id, tag_ids: attached },
        });
    });
    return undefined;
  }

  /** A new page, last at the root of the project the body names, with the given fields and the defaults. */
  async function createPage(caller: Caller, _id: string, body: Body): Promise<object> {
    const { project_id: projectId, title = '', content = '', schema = 1, font = 'sans' } = body;
    if (typeof projectId !== 'string' || typeof title !== 'string' || typeof content !== 'string')
      throw new HttpError(400);
    return {
      page: await transaction(async (c, events) => {
        await run(c, sql.LOCK_PROJECT, [caller.teamId, projectId]);
        const [{ exists, last }] = await run<{ exists: boolean; last: string | null }>(c, sql.LAST_ROOT_KEY, [
          caller.teamId,
          projectId,
        ]);
        if (!exists) throw new HttpError(404);
        const page = one(
          await run(c, sql.INSERT_PAGE, [
            caller.teamId,
            projectId,
            null,
            generateKeyBetween(last, null),
            title,
            content,
            schema,
            font,
            false,
            false,
            caller.userId,
            caller.actor,
          ]),
        );
        await announce(c, events, caller, {
          resource: `page:${String(page.id)}`,
          type: 'page.created',
          data: { page },
        });
        return page;
      }),
    };
  }

  /** A copy of one page, right after it among its siblings. */
  async function copyPage(caller: Caller, id: string): Promise<object> {
    return {
      page: await transaction(async (c, events) => {
        const locked = await run(c, sql.LOCK_PROJECTS, [caller.teamId, id, null]);
        if (locked.length === 0) throw new HttpError(404);
        const source = one(await run(c, sql.COPY_SOURCE, [caller.teamId, id])) as Row & {
          project_id: string;
          parent_id: string | null;
          sort_key: string;
          next_key: string | null;
        };
        if (!locked.some((l) => l.project_id === source.project_id)) throw new Moved();
        const page = one(
          await run(c, sql.INSERT_PAGE, [
            caller.teamId,
            source.project_id,
            source.parent_id,
            generateKeyBetween(source.sort_key, source.next_key),
            source.title,
            source.content,
            source.schema,
            source.font,
            source.hide_table_of_contents,
            source.hide_subpages,
            caller.userId,
            caller.actor,
          ]),
        );
        const data = { page, copied_from: id };
        await announce(c, events, caller, { resource: `page:${String(page.id)}`, type: 'page.created', data });
        return page;
      }),
    };
  }

  /** `id` is `{card}/{tag}`. */
  async function removeTag(caller: Caller, id: string): Promise<undefined> {
    const [cardId, tagId] = id.split('/');
    await transaction(async (client, events) => {
      const [found] = await run<{ card: boolean; tag: boolean; removed: boolean }>(client, sql.REMOVE_TAG, [
        caller.teamId,
        cardId,
        tagId,
      ]);
      if (!found.card || !found.tag) throw new HttpError(404); // nothing was removed
      if (found.removed)
        await announce(client, events, caller, {
          resource: `card:${cardId}`,
          type: 'card.tags_removed',
          data: { card_id: cardId, tag_ids: [tagId] },
        });
    });
    return undefined;
  }

  /** `query`: the query string; `cursor` is the app's (base64url JSON with the position in `p`). */
  async function listTags(caller: Caller, query: string): Promise<object> {
    const params = new URLSearchParams(query);
    const limit = Number(params.get('limit') ?? 100);
    const cursor = params.get('cursor');
    const [name, id] = cursor
      ? (JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { p: [string, string] }).p
      : ['', '-1'];
    const rows = await run(pool, sql.LIST_TAGS, [caller.teamId, name, id, limit + 1]);
    const tags = rows.slice(0, limit);
    const last = tags[tags.length - 1];
    const next =
      rows.length > limit ? Buffer.from(JSON.stringify({ p: [last.name_key, last.id] })).toString('base64url') : null;
    return { tags, count: tags.length, cursor: next };
  }

  /**
   * `query`: the query string; `cursor` is the app's tree cursor (base64url JSON: `p` = ['tree', first answer's
   * time, snapshot, project, path ids, path keys]). The next cursor has the same shape; no filters.
   */
  async function listPages(caller: Caller, query: string): Promise<object> {
    const params = new URLSearchParams(query);
    const limit = Number(params.get('limit') ?? 50);
    const cursor = params.get('cursor');
    const [, time, snapshot, project, ids, keys] = cursor
      ? (JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { p: unknown[] }).p
      : ['tree', Date.now(), null, null, [], []];
    const rows = await run(pool, sql.WALK_PAGES, [caller.teamId, snapshot, project, ids, keys, limit + 1]);
    const pages = rows
      .slice(0, limit)
      .filter((row) => row.listed)
      .map(({ snapshot: _s, walk_project: _w, path_ids: _i, path_keys: _k, listed: _l, ...page }) => page);
    const last = rows[limit - 1];
    const next =
      rows.length > limit
        ? Buffer.from(
            JSON.stringify({ p: ['tree', time, last.snapshot, last.walk_project, last.path_ids, last.path_keys] }),
          ).toString('base64url')
        : null;
    return { pages, count: pages.length, cursor: next };
  }

  type Handler = (caller: Caller, id: string, body: Body) => Promise<object | undefined>;
  const routes: Record<string, Handler> = {
    'GET templates': async (c, id) => ({
      note_template: one(await run(pool, sql.READ_TEMPLATE, [c.teamId, id, c.userId])),
    }),
    'PATCH templates': async (c, id, body) => {
      if (typeof body.title !== 'string') throw new HttpError(400);
      return {
        note_template: await transaction(async (t, events) => {
          const template = one(await run(t, sql.RENAME_TEMPLATE, [c.teamId, id, c.userId, body.title, c.actor]));
          const data = { changed: ['title'], note_template: template };
          await announce(t, events, c, { resource: `note_template:${id}`, type: 'note_template.updated', data });
          return template;
        }),
      };
    },
    'GET pages': async (c, id) => ({ page: one(await run(pool, sql.READ_PAGE, [c.teamId, id])) }),
    'PATCH pages': patchPage,
    'POST pages': createPage,
    'POST pages/copy': copyPage,
    'GET cards': async (c, id) => ({ card: one(await run(pool, sql.READ_CARD, [c.teamId, id])) }),
    'POST cards/tags': attachTags,
    'DELETE cards/tags': removeTag,
    'GET tags': async (c, query) => listTags(c, query),
    'GET pages/': async (c, query) => listPages(c, query),
  };

  async function handle(req: IncomingMessage): Promise<object | undefined> {
    const { route, teamId, id } = routeOf(req.method ?? '', req.url ?? '');
    const handler = routes[route];
    if (!handler) throw new HttpError(404);
    const write = req.method !== 'GET';
    const caller = await authenticate(req, teamId, write);
    return handler(caller, id, write && req.method !== 'DELETE' ? await readJson(req) : {});
  }

  /** GET /p/{alias_id}: no token, one SELECT, the page as HTML (public-page.ts). */
  async function publicPage(res: ServerResponse, aliasId: string): Promise<void> {
    if (!/^[0-9a-f-]{36}$/.test(aliasId)) throw new HttpError(404);
    const row = one(await run(pool, sql.READ_PUBLIC_PAGE, [aliasId])) as unknown as PublicPageRow;
    const html = floorPublicPage(row);
    res.writeHead(200, { ...FLOOR_PUBLIC_PAGE_HEADERS, 'content-length': Buffer.byteLength(html) }).end(html);
  }

  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url?.startsWith('/p/'))
      return void publicPage(res, req.url.slice(3).split('?')[0]).catch((error: unknown) => {
        if (!(error instanceof HttpError)) console.error(error);
        answer(res, error instanceof HttpError ? error.status : 500, undefined);
      });
    handle(req).then(
      (result) =>
        answer(res, result === undefined ? 204 : req.method === 'POST' && 'page' in result ? 201 : 200, result),
      (error: unknown) => {
        // A client that hangs up mid-body (autocannon stopping a turn) is not a server error.
        if ((error as { code?: string }).code === 'ECONNRESET') return void res.destroy();
        const status = error instanceof HttpError ? error.status : statusOf(error);
        if (status === 500) console.error(error);
        answer(res, status, undefined);
      },
    );
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await pool.end();
    },
  };
}

/**
 * `/v1/{team}/notes/templates/{id}`, `/v1/{team}/pages/{id}`, `/v1/{team}/cards/{id}[/tags[/{tag}]]`,
 * `/v1/{team}/tags?...`, `/v1/{team}/pages?...` (route `GET pages/`, apart from a page's GET): a route key, the
 * team and the id (a card's and tag's `{card}/{tag}`, a list's query).
 */
function routeOf(method: string, url: string): { route: string; teamId: string; id: string } {
  const [path, query = ''] = url.split('?');
  const [, v1, teamId, kind, id, last, ...more] = path.split('/');
  if (v1 === 'v1' && kind === 'pages' && id === undefined)
    return method === 'GET' ? { route: 'GET pages/', teamId, id: query } : { route: `${method} pages`, teamId, id: '' };
  if (v1 === 'v1' && kind === 'tags' && id === undefined) return { route: `${method} tags`, teamId, id: query };
  if (v1 === 'v1' && kind === 'cards' && last === 'tags' && more.length === 1)
    return { route: `${method} cards/tags`, teamId, id: `${id}/${more[0]}` };
  if (v1 !== 'v1' || more.length > 0 || id === undefined) return { route: '', teamId, id };
  if (kind === 'notes' && id === 'templates' && last !== undefined)
    return { route: `${method} templates`, teamId, id: last };
  return { route: `${method} ${kind}${last === undefined ? '' : `/${last}`}`, teamId, id };
}

function answer(res: ServerResponse, status: number, result: object | undefined): void {
  if (result === undefined) return void res.writeHead(status).end();
  const json = JSON.stringify(result);
  res
    .writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(json) })
    .end(json);
}

/** A database refusal of what the request said: a missing referenced row, a value of the wrong type or out of range. */
function statusOf(error: unknown): number {
  const code = (error as { code?: string }).code ?? '';
  if (code === '23503') return 404;
  if (code.startsWith('22') || code === '23514') return 400;
  return 500;
}

async function readJson(req: IncomingMessage): Promise<Body> {
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
  try {
    const value: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Body;
  } catch {
    // answered below
  }
  throw new HttpError(400);
}
