/**
 * The floor: what Node and `pg` alone do for the benchmarked requests, with no framework. It serves
 *
 *   GET   /v1/{team_id}/notes/templates/{template_id}     PATCH the same, body {title}
 *   GET   /v1/{team_id}/pages/{page_id}                   PATCH the same, body {title} | {position} | {project_id}
 *   GET   /v1/{team_id}/cards/{card_id}                   POST  /v1/{team_id}/cards/{card_id}/tags, body {id} | {ids}
 *
 * and does per request what the service does: the same token lookup (SHA-256 of the bearer secret,
 * tokens joined with members, one query), the same membership and role check (token's workspace,
 * writers only for writes, guests only on resources listing them), and the same statements with the
 * same transaction boundaries, row locks and advisory locks, touching the same rows: it reuses the SQL
 * of src/notes/note-template-queries.ts, src/pages/page-queries.ts and src/cards/card-queries.ts,
 * sortKeyAt (src/pages/sibling-order.ts) and the views (toNoteTemplateView, toPageView). Deadlocks
 * and serialization failures are retried, as retryOnConflict does.
 *
 * What it leaves out, on purpose (the framework's and the contract's share of the cost):
 *   - validation of path and body beyond what the SQL needs (class-validator, the DTOs, unknown
 *     fields, the code-point limits, team_id shape); a malformed request gets a bare 400
 *   - the error catalogue and its bodies (id, sec, message, date); errors are `{"error": {"code"}}`
 *   - logging (pino, request ids), security headers (helmet), CORS, the rate limit (off in the
 *     benchmark for the app too), the request deadline, body Content-Encoding, content-type checks
 *   - OpenAPI, Passport, guards, interceptors, pipes and Express routing: a switch on the path
 *   - the page fields other than title/position/project_id, parent_page_id moves, archiving, and the
 *     rare sort-key rebalance is reused from sortKeyAt as-is
 *   - graceful shutdown beyond closing the pool
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool, PoolClient } from 'pg';
import { AUTHENTICATE } from '../../src/auth/token-queries';
import { sessionOf } from '../../src/database/sql';
import { FOR_UPDATE, READ_TEMPLATE, TemplateRow, toNoteTemplate, updateTemplate } from '../../src/notes/note-template-queries';
import { toNoteTemplateView } from '../../src/notes/note-template.view';
import { ATTACH_TAGS, LOCK_CARD, READ_CARD } from '../../src/cards/card-queries';
import { MOVE_SUBTREE_TO_PROJECT, PAGE_STATE, PROJECT_EXISTS, READ_PAGE } from '../../src/pages/page-queries';
import { PageRow, toPageView } from '../../src/pages/page.view';
import { sortKeyAt } from '../../src/pages/sibling-order';

const WRITERS = new Set(['owner', 'admin', 'member', 'guest']);
const BIGINT_MAX = 9223372036854775807n;
const NUMERIC_ID = /^[0-9]{1,19}$/;
const BODY_LIMIT = 1024 * 1024;
const COLLABORATION_LIFETIME_MS = 60 * 60 * 1000;

interface Caller {
  teamId: string;
  userId: string;
  role: string;
  actor: Record<string, unknown>;
}

class HttpError extends Error {
  constructor(readonly status: number) {
    super(String(status));
  }
}

export interface BaselineOptions {
  databaseUrl: string;
  poolSize?: number;
  statementTimeoutMs?: number;
  publicPagesBaseUrl?: string;
}

export interface Baseline {
  server: Server;
  pool: Pool;
  port: number;
  close(): Promise<void>;
}

export async function startBaseline(options: BaselineOptions, port = 0): Promise<Baseline> {
  const statementTimeout = options.statementTimeoutMs ?? 5000;
  // The same pool settings as the app's DataSource (data-source-options.ts).
  const pool = new Pool({
    connectionString: options.databaseUrl,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: 3000,
    statement_timeout: statementTimeout,
    query_timeout: statementTimeout + 1000,
    idle_in_transaction_session_timeout: statementTimeout * 2,
    application_name: 'workspace-content-api-baseline',
  });
  const collaborationSecret = randomBytes(32).toString('hex');
  const publicBase = options.publicPagesBaseUrl ?? 'http://localhost:3000/p';

  const collaborationToken = (teamId: string, pageId: string, userId: string) => {
    const body = Buffer.from(JSON.stringify({ team_id: teamId, page_id: pageId, user_id: userId, exp: Date.now() + COLLABORATION_LIFETIME_MS })).toString('base64url');
    return `${body}.${createHmac('sha256', collaborationSecret).update(body).digest('base64url')}`;
  };

  async function authenticate(req: IncomingMessage): Promise<Caller> {
    const header = req.headers.authorization;
    if (!header?.startsWith('Bearer ') || header.length === 7) throw new HttpError(401);
    const hash = createHash('sha256').update(header.slice(7), 'utf8').digest();
    const { rows } = await pool.query(AUTHENTICATE, [hash]);
    if (rows.length === 0) throw new HttpError(401);
    const row = rows[0];
    return { teamId: row.team_id, userId: row.user_id, role: row.role, actor: { user_id: row.user_id, ...row.actor } };
  }

  /** One transaction, retried on deadlock or serialization failure like retryOnConflict. */
  async function transaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const client = await pool.connect();
      try {
        await client.query('START TRANSACTION');
        const result = await work(client);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        const code = (error as { code?: string }).code;
        if (attempt >= 8 || !(error instanceof StaleRead || code === '40001' || code === '40P01')) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * attempt));
      } finally {
        client.release();
      }
    }
  }

  // ---- note templates ----

  const templateView = (t: TemplateRow) => toNoteTemplateView(toNoteTemplate(t), t.is_favourited);

  async function getTemplate(caller: Caller, teamId: string, id: string) {
    const { rows } = await pool.query<TemplateRow>(READ_TEMPLATE, [teamId, id, caller.userId]);
    const t = rows[0];
    if (!t) throw new HttpError(404);
    if (!(t.owner_id === caller.userId || t.owner_id === null || t.is_shared)) throw new HttpError(403);
    return { note_template: templateView(t) };
  }

  async function patchTemplate(caller: Caller, teamId: string, id: string, body: Record<string, unknown>) {
    if (typeof body.title !== 'string') throw new HttpError(400);
    const title = body.title;
    return transaction(async (client) => {
      const { rows } = await client.query<TemplateRow>(READ_TEMPLATE + FOR_UPDATE, [teamId, id, caller.userId]);
      const t = rows[0];
      if (!t) throw new HttpError(404);
      if (t.owner_id !== caller.userId) throw new HttpError(403);
      if (t.title !== title) {
        const update = updateTemplate(teamId, id, { title }, caller.actor);
        const updated = await client.query(update.sql, update.params);
        Object.assign(t, { title, updated_by: caller.actor, time_updated: updated.rows[0].time_updated });
      }
      return { note_template: templateView(t) };
    });
  }

  // ---- pages ----

  async function readPage(db: Pool | PoolClient, caller: Caller, teamId: string, id: string, position: number | null) {
    const { rows } = await db.query(READ_PAGE, [teamId, id, caller.userId, position]);
    const row = rows[0] as PageRow | undefined;
    if (!row) throw new HttpError(404);
    if (caller.role === 'guest' && !row.caller_is_member) throw new HttpError(403);
    return { page: toPageView(row, collaborationToken(teamId, id, caller.userId), publicBase) };
  }

  async function pageState(client: PoolClient, caller: Caller, teamId: string, id: string, lock: string) {
    const { rows } = await client.query(`${PAGE_STATE} ${lock}`, [teamId, id, caller.userId]);
    if (!rows[0]) throw new HttpError(404);
    if (caller.role === 'guest' && !rows[0].caller_is_member) throw new HttpError(403);
    return rows[0];
  }

  /** PagesService.update for title, position and project_id: the same statements in the same order. */
  async function patchPage(caller: Caller, teamId: string, id: string, body: Record<string, unknown>) {
    const { title, position, project_id: projectId } = body as { title?: unknown; position?: unknown; project_id?: unknown };
    if (title !== undefined && typeof title !== 'string') throw new HttpError(400);
    if (position !== undefined && !(Number.isInteger(position) && (position as number) >= 0)) throw new HttpError(400);
    if (projectId !== undefined && typeof projectId !== 'string') throw new HttpError(400);
    const structural = position !== undefined || projectId !== undefined;
    return transaction(async (client) => {
      let locked = new Set<string>();
      if (structural) {
        const unlocked = await pageState(client, caller, teamId, id, '');
        locked = new Set([unlocked.project_id, ...(projectId === undefined ? [] : [projectId as string])]);
        const keys = [...locked].sort().map((p) => `${teamId}/${p}`);
        await client.query(`SELECT pg_advisory_xact_lock(hashtextextended(k, 0)) FROM unnest($1::text[]) WITH ORDINALITY AS t(k, n) ORDER BY n`, [keys]);
      }
      const state = await pageState(client, caller, teamId, id, 'FOR UPDATE OF p');
      if (structural && !locked.has(state.project_id)) throw new StaleRead();
      if (structural && state.archive_root_id !== null) throw new HttpError(400);

      const columns: Array<[string, string, unknown]> = [];
      const after: Array<[string, unknown[]]> = [];
      let newPosition: number | null = null;
      if (title !== undefined && title !== state.title) columns.push(['title', 'text', title]);
      if (structural) {
        let there = { projectId: state.project_id as string, parentId: state.parent_id as string | null };
        if (projectId !== undefined && projectId !== state.project_id) {
          if ((await client.query(PROJECT_EXISTS, [teamId, projectId])).rows.length === 0) throw new HttpError(404);
          there = { projectId: projectId as string, parentId: null };
        }
        const stays = there.projectId === state.project_id && there.parentId === state.parent_id;
        if (!stays || position !== undefined) {
          const slot = await sortKeyAt(sessionOf(client), teamId, there, id, (position as number | undefined) ?? null, stays ? state.sort_key : null);
          if (slot !== null) {
            columns.push(['parent_id', 'bigint', there.parentId], ['sort_key', 'text', slot.key]);
            newPosition = slot.position;
            if (there.projectId !== state.project_id) {
              columns.push(['project_id', 'text', there.projectId]);
              after.push([MOVE_SUBTREE_TO_PROJECT, [teamId, id, there.projectId]]);
            }
          }
        }
      }
      if (columns.length > 0) {
        const sets = columns.map(([column, type], n) => `${column} = $${n + 4}::${type}`);
        await client.query(`UPDATE pages SET ${[...sets, 'updated_by = $3::jsonb', 'time_updated = now()'].join(', ')} WHERE team_id = $1 AND id = $2`, [
          teamId,
          id,
          JSON.stringify(caller.actor),
          ...columns.map(([, , value]) => value),
        ]);
      }
      for (const [sql, params] of after) await client.query(sql, params);
      return readPage(client, caller, teamId, id, newPosition);
    });
  }

  // ---- cards ----

  async function getCard(caller: Caller, teamId: string, id: string) {
    const { rows } = await pool.query(READ_CARD, [teamId, id, caller.userId]);
    if (!rows[0]) throw new HttpError(404);
    const { created_by, updated_by, caller_is_member, ...card } = rows[0];
    if (caller.role === 'guest' && !caller_is_member) throw new HttpError(403);
    return { card: { ...card, user: created_by, user_updated: updated_by } };
  }

  async function attachTags(caller: Caller, teamId: string, id: string, body: Record<string, unknown>) {
    const given = [...(body.id === undefined ? [] : [body.id]), ...(Array.isArray(body.ids) ? body.ids : [])];
    if (!given.every((x) => typeof x === 'string' && NUMERIC_ID.test(x))) throw new HttpError(400);
    const ids = [...new Set((given as string[]).map((x) => BigInt(x).toString()))];
    if (ids.length === 0 || ids.length > 100) throw new HttpError(400);
    await transaction(async (client) => {
      const { rows } = await client.query(LOCK_CARD, [teamId, id, caller.userId]);
      const card = rows[0];
      if (!card) throw new HttpError(404);
      if (caller.role === 'guest' && !card.caller_is_member) throw new HttpError(403);
      const storable = ids.filter((x) => BigInt(x) <= BIGINT_MAX);
      const result = (await client.query(ATTACH_TAGS, [teamId, id, storable, card.project_id, JSON.stringify(caller.actor)])).rows[0];
      if (storable.length < ids.length || result.unknown.length > 0) throw new HttpError(404); // rolls back
    });
    return undefined;
  }

  // ---- routing ----

  type Handler = (caller: Caller, teamId: string, id: string, body: Record<string, unknown>) => Promise<object | undefined>;
  const routes: Array<{ method: string; pattern: RegExp; write: boolean; numericId: boolean; handler: Handler }> = [
    { method: 'GET', pattern: /^\/v1\/([^/]+)\/notes\/templates\/([^/]+)$/, write: false, numericId: false, handler: (c, t, i) => getTemplate(c, t, i) },
    { method: 'PATCH', pattern: /^\/v1\/([^/]+)\/notes\/templates\/([^/]+)$/, write: true, numericId: false, handler: patchTemplate },
    { method: 'GET', pattern: /^\/v1\/([^/]+)\/pages\/([^/]+)$/, write: false, numericId: true, handler: (c, t, i) => readPage(pool, c, t, i, null) },
    { method: 'PATCH', pattern: /^\/v1\/([^/]+)\/pages\/([^/]+)$/, write: true, numericId: true, handler: patchPage },
    { method: 'GET', pattern: /^\/v1\/([^/]+)\/cards\/([^/]+)$/, write: false, numericId: true, handler: (c, t, i) => getCard(c, t, i) },
    { method: 'POST', pattern: /^\/v1\/([^/]+)\/cards\/([^/]+)\/tags$/, write: true, numericId: true, handler: attachTags },
  ];

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0];
    const route = routes.find((r) => r.method === req.method && r.pattern.test(path));
    if (!route) throw new HttpError(404);
    const [, teamId, id] = route.pattern.exec(path)!;
    const caller = await authenticate(req);
    if (caller.teamId !== teamId || (route.write && !WRITERS.has(caller.role))) throw new HttpError(403);
    if (route.numericId && !(NUMERIC_ID.test(id) && BigInt(id) <= BIGINT_MAX)) throw new HttpError(404);
    const body = route.method === 'GET' ? {} : await readJson(req);
    const result = await route.handler(caller, teamId, id, body);
    if (result === undefined) {
      res.writeHead(204).end();
      return;
    }
    const json = JSON.stringify(result);
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(json) }).end(json);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      // A client that hangs up mid-body (autocannon stopping) is not a server error.
      if ((error as { code?: string }).code === 'ECONNRESET') return void res.destroy();
      const status = error instanceof HttpError ? error.status : 500;
      if (status === 500) console.error(error);
      const json = JSON.stringify({ error: { code: status } });
      if (!res.headersSent) res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) });
      res.end(json);
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    server,
    pool,
    port: (server.address() as AddressInfo).port,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await pool.end();
    },
  };
}

/** The page's project moved between the unlocked read and the lock: run the transaction again. */
class StaleRead extends Error {}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > BODY_LIMIT) throw new HttpError(413);
    chunks.push(chunk);
  }
  try {
    const value = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new HttpError(400);
    return value;
  } catch {
    throw new HttpError(400);
  }
}

if (require.main === module) {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('DATABASE_URL is required');
  startBaseline(
    {
      databaseUrl,
      poolSize: Number(process.env.DB_POOL_SIZE ?? 10),
      statementTimeoutMs: Number(process.env.DB_STATEMENT_TIMEOUT_MS ?? 5000),
      publicPagesBaseUrl: process.env.PUBLIC_PAGES_BASE_URL,
    },
    Number(process.env.PORT ?? 3001),
  ).then((b) => console.log(`baseline listening on http://127.0.0.1:${b.port}`));
}
