/**
 * The same-SQL baseline: our own services (NotesService, PagesService, CardsService, TagsService, so the very
 * statements, transactions and locks the service sends) behind a bare `node:http` + `pg` server.
 * Beside the app it measures what the framework costs; beside the floor (bench/floor/) the floor
 * shows what our SQL design costs. It serves
 *
 *   GET   /v1/{team_id}/notes/templates/{template_id}     PATCH the same
 *   GET   /v1/{team_id}/pages/{page_id}                   PATCH the same
 *   GET   /v1/{team_id}/pages?limit&cursor                (PageList: the tree walk)
 *   GET   /v1/{team_id}/cards/{card_id}                   POST  /v1/{team_id}/cards/{card_id}/tags
 *   GET   /p/{alias_id}                                   (no token: PublicPagesService, HTML)
 *
 * Per request: the token lookup (AUTHENTICATE, no cache), the membership and role check, then the
 * service. What it leaves out (the framework's and the contract's share of the cost): Nest's
 * guards, pipes and filters; validation (the body goes to the service as parsed JSON, trusted);
 * the error catalogue's bodies (errors are `{"error": {"code"}}`); logging, request ids, helmet,
 * CORS, the rate limit, the request deadline, ETags; the token cache.
 */
import { createHash } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'pg';
import { UNCONDITIONAL } from '../../src/safe-writes/write-conditions';
import { Caller } from '../../src/auth/caller';
import { AUTHENTICATE } from '../../src/auth/token-queries';
import { CardsService } from '../../src/cards/cards.service';
import { TagsService } from '../../src/tags/tags.service';
import { PageList } from '../../src/pages/page-list';
import { Announcer } from '../../src/write-path/announcer';
import { DeliveriesQueued } from '../../src/write-path/deliveries-queued';
import { WriteSequence } from '../../src/write-path/write-sequence';
import { loadConfig } from '../../src/config/app-config';
import { poolSettings } from '../../src/database/data-source-options';
import { PoolSql } from '../../src/database/sql';
import { DomainError } from '../../src/errors/domain-error';
import { NotesService } from '../../src/notes/notes.service';
import { CollaborationTokens } from '../../src/pages/collaboration-tokens';
import { PageCopy } from '../../src/pages/page-copy';
import { PageCreation } from '../../src/pages/page-creation';
import { PagesService } from '../../src/pages/pages.service';
import { PublicPagesService } from '../../src/public-pages/public-pages.service';
import { mayWrite } from '../../src/workspaces/role-permissions';

const BODY_LIMIT = 1024 * 1024;

class HttpError extends Error {
  constructor(readonly status: number) {
    super(String(status));
  }
}

export interface BaselineOptions {
  databaseUrl: string;
}

export interface Baseline {
  server: Server;
  pool: Pool;
  port: number;
  close(): Promise<void>;
}

type Handler = (caller: Caller, teamId: string, id: string, body: never) => Promise<object | undefined>;

export async function startBaseline(options: BaselineOptions, port = 0): Promise<Baseline> {
  const config = loadConfig(process.env, { DATABASE_URL: options.databaseUrl });
  // The app's pool settings (size, timeouts, generic plans), under another application_name.
  const pool = new Pool({
    connectionString: options.databaseUrl,
    ...poolSettings(config),
    application_name: 'workspace-content-api-baseline',
  });
  const db = new PoolSql(pool);
  const writes = new WriteSequence(db, new Announcer(), new DeliveriesQueued());
  const notes = new NotesService(db, writes);
  const pages = new PagesService(db, config, new CollaborationTokens(config), writes);
  const cards = new CardsService(db, writes);
  const creation = new PageCreation(config, new CollaborationTokens(config), writes);
  const copies = new PageCopy(config, new CollaborationTokens(config), writes);
  const tags = new TagsService(db, writes);
  const pageList = new PageList(db, config);
  const publicPages = new PublicPagesService(db);

  async function authenticate(req: IncomingMessage): Promise<Caller> {
    const header = req.headers.authorization;
    if (!header?.startsWith('Bearer ') || header.length === 7) throw new HttpError(401);
    const [row] = await db.query(AUTHENTICATE, {
      tokenHash: createHash('sha256').update(header.slice(7), 'utf8').digest(),
    });
    if (!row) throw new HttpError(401);
    return {
      tokenId: row.id,
      teamId: row.team_id,
      userId: row.user_id,
      role: row.role,
      actor: { user_id: row.user_id, ...row.actor },
    };
  }

  const routes: Array<{ method: string; pattern: RegExp; handler: Handler }> = [
    {
      method: 'GET',
      pattern: /^\/v1\/([^/]+)\/notes\/templates\/([^/]+)$/,
      handler: async (c, t, i) => ({ note_template: (await notes.get(c, t, i)).body }),
    },
    {
      method: 'PATCH',
      pattern: /^\/v1\/([^/]+)\/notes\/templates\/([^/]+)$/,
      handler: async (c, t, i, b) => ({ note_template: (await notes.update(c, t, i, b, UNCONDITIONAL)).body }),
    },
    {
      method: 'GET',
      pattern: /^\/v1\/([^/]+)\/pages\/([^/]+)$/,
      handler: async (c, t, i) => ({ page: (await pages.get(c, t, i)).body }),
    },
    {
      method: 'PATCH',
      pattern: /^\/v1\/([^/]+)\/pages\/([^/]+)$/,
      handler: async (c, t, i, b) => ({ page: (await pages.update(c, t, i, b, UNCONDITIONAL)).body }),
    },
    {
      method: 'POST',
      pattern: /^\/v1\/([^/]+)\/pages()$/,
      handler: async (c, t, _i, b) => ({ page: (await creation.create(c, t, b, UNCONDITIONAL)).body }),
    },
    {
      method: 'POST',
      pattern: /^\/v1\/([^/]+)\/pages\/([^/]+)\/copy$/,
      handler: async (c, t, i, b) => ({ page: (await copies.copy(c, t, i, b, UNCONDITIONAL)).body }),
    },
    {
      method: 'GET',
      pattern: /^\/v1\/([^/]+)\/cards\/([^/]+)$/,
      handler: async (c, t, i) => ({ card: (await cards.get(c, t, i)).body }),
    },
    {
      method: 'POST',
      pattern: /^\/v1\/([^/]+)\/cards\/([^/]+)\/tags$/,
      handler: async (c, t, i, b) => void (await cards.addTags(c, t, i, b, UNCONDITIONAL)),
    },
    {
      method: 'DELETE',
      pattern: /^\/v1\/([^/]+)\/cards\/([^/]+\/tags\/[^/]+)$/,
      handler: async (c, t, i) => {
        const [cardId, , tagId] = i.split('/');
        await cards.removeTag(c, t, cardId, tagId, UNCONDITIONAL);
        return undefined;
      },
    },
    {
      method: 'GET',
      pattern: /^\/v1\/([^/]+)\/pages()$/,
      handler: async (c, t, _i, q: { limit?: string; cursor?: string }) =>
        pageList.list(c, t, { limit: q.limit === undefined ? undefined : Number(q.limit), cursor: q.cursor }),
    },
    {
      method: 'GET',
      pattern: /^\/v1\/([^/]+)\/(tags)$/,
      // A GET's "body" is its query string (handle).
      handler: async (_c, t, _i, q: { limit?: string; cursor?: string }) =>
        tags.list(t, { limit: q.limit === undefined ? undefined : Number(q.limit), cursor: q.cursor }),
    },
  ];

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const [path, query = ''] = (req.url ?? '/').split('?');
    // A shared page: no token; the service's own statement, sanitiser and rendering, as HTML.
    if (req.method === 'GET' && path.startsWith('/p/')) {
      const page = await publicPages.show(path.slice(3), 'html', undefined);
      return void res
        .writeHead(200, { 'content-type': page.contentType, 'content-length': Buffer.byteLength(page.body) })
        .end(page.body);
    }
    const route = routes.find((r) => r.method === req.method && r.pattern.test(path));
    if (!route) throw new HttpError(404);
    const [, teamId, id] = route.pattern.exec(path)!;
    const caller = await authenticate(req);
    if (caller.teamId !== teamId || (req.method !== 'GET' && !mayWrite(caller.role))) throw new HttpError(403);
    const body =
      req.method === 'GET'
        ? Object.fromEntries(new URLSearchParams(query))
        : req.method === 'DELETE'
          ? {}
          : await readJson(req);
    const result = await route.handler(caller, teamId, id, body as never);
    if (result === undefined) return void res.writeHead(204).end();
    const json = JSON.stringify(result);
    res
      .writeHead(req.method === 'POST' ? 201 : 200, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(json),
      })
      .end(json);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      // A client that hangs up mid-body (autocannon stopping) is not a server error.
      if ((error as { code?: string }).code === 'ECONNRESET') return void res.destroy();
      const status = error instanceof HttpError || error instanceof DomainError ? error.status : 500;
      if (status === 500) console.error(error);
      const json = JSON.stringify({ error: { code: status } });
      if (!res.headersSent)
        res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) });
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

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > BODY_LIMIT) throw new HttpError(413);
    chunks.push(chunk);
  }
  try {
    const value: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new HttpError(400);
    return value as Record<string, unknown>;
  } catch {
    throw new HttpError(400);
  }
}
