import { join } from 'node:path';
import { RunningPostgres, startEmbeddedPostgres } from '../../src/database/embedded/embedded-postgres';
import { startThrowawayPostgres, ThrowawayPostgres } from '../../src/database/embedded/throwaway-postgres';
import { importDocument, seedWorkspace, Workspace } from '../support/fixtures';
import { OpenApiValidator } from '../support/openapi-validator';
import { createTestApp, TestApp } from '../support/test-app';
import { percentile, report } from './fault-report';
import { holdFor, waitFor } from '../support/wait-for';
import { call, Outcome } from './http-client';
import {
  CardState,
  FamilyState,
  possibleStates,
  resourcesOf,
  seededFamily,
  seedDocument,
  templateView,
  Write,
  writeFor,
} from './write-model';

const CLIENTS = 16;
const SETS = 3; // one resource set per phase: before the stop, while down, after the restart
const UP_MS = 3000;
const DOWN_MS = 3000;
/** Successful requests each client makes after the restart before the run ends. */
const SERVED_AFTER_RESTART = 5;
const REQUEST_TIMEOUT_MS = 10_000; // the contract: no request hangs longer than 10 s
/** How long the clients may take to be served again: a loaded machine serves slower, but within this it serves. */
const RECOVERY_LIMIT_MS = 20_000;

interface Attempt {
  c: number;
  n: number;
  set: number;
  write: Write;
  outcome: Outcome;
}

/**
 * The app on a PostgreSQL of its own; 16 clients write steadily; PostgreSQL is stopped by force in
 * the middle of the run, kept down, then started again on the same data directory and port, while
 * the same app process keeps serving. Then every resource is read back and compared with what the
 * successful responses said.
 */
describe('the database stops in the middle of a load run', () => {
  let postgres: ThrowawayPostgres;
  let restarted: RunningPostgres | undefined;
  let t: TestApp;
  let ws: Workspace;
  let base: string;
  let validator: OpenApiValidator;

  beforeAll(async () => {
    postgres = await startThrowawayPostgres();
    t = await createTestApp({
      DATABASE_URL: postgres.url,
      RUN_MIGRATIONS: 'true',
      DB_CONNECT_TIMEOUT_MS: '2000',
      LOG_LEVEL: 'error',
    });
    ws = await seedWorkspace(t.app);
    await importDocument(t.app, seedDocument(ws, CLIENTS, SETS));
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as { port: number }).port}`;
    validator = new OpenApiValidator(
      (await call(base, { method: 'GET', path: '/openapi.json', timeoutMs: 10_000 })).body as never,
    );
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    await restarted?.stop({ force: true });
    await postgres?.destroy();
  });

  it(
    'answers 503 with Retry-After while it is down, serves again once it is back, ' +
      'and keeps exactly the successful writes',
    async () => {
      const attempts: Attempt[] = [];
      let set = 0;
      let running = true;
      const client = async (c: number) => {
        const attaches = new Map<number, number>();
        for (let n = 1; running; n++) {
          const current = set;
          const write = writeFor(ws.teamId, c, current, n, attaches.get(current) ?? 0);
          if (write.resource.startsWith('card:')) attaches.set(current, (attaches.get(current) ?? 0) + 1);
          const outcome = await call(base, {
            method: write.method,
            path: write.path,
            auth: ws.auth.member,
            body: write.body,
            timeoutMs: REQUEST_TIMEOUT_MS,
          });
          attempts.push({ c, n, set: current, write, outcome });
          await holdFor(20, "a client's pause between requests");
        }
      };
      const clients = Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));

      let stopStart = 0;
      let stopEnd = 0;
      let restartStart = 0;
      let restartEnd = 0;
      let readyWhileDown: Outcome;
      const servedAfterRestart = () =>
        Array.from(
          { length: CLIENTS },
          (_, c) =>
            attempts.filter(
              (a) => a.c === c && a.outcome.startedAt > restartEnd && a.outcome.status === a.write.okStatus,
            ).length,
        );
      try {
        await holdFor(UP_MS, 'the load runs on the database before it stops');
        set = 1;
        stopStart = Date.now();
        await postgres.stop();
        stopEnd = Date.now();
        await holdFor(DOWN_MS / 2, 'the database stays down');
        readyWhileDown = await call(base, { method: 'GET', path: '/health/ready', timeoutMs: REQUEST_TIMEOUT_MS });
        await holdFor(DOWN_MS / 2, 'the database stays down');
        restartStart = Date.now();
        const { hostname, port, pathname } = new URL(postgres.url);
        restarted = await startEmbeddedPostgres({
          dataDir: join(postgres.dataDir, 'cluster'),
          port: Number(port),
          database: pathname.slice(1),
        });
        expect(new URL(restarted.url).hostname).toBe(hostname);
        restartEnd = Date.now();
        set = 2;
        // Serving again is counted in requests per client, not in a time window a slow machine would leave short.
        await waitFor(
          `every client served ${SERVED_AFTER_RESTART} times after the restart (successes per client)`,
          () => servedAfterRestart(),
          (served) => served.every((n) => n >= SERVED_AFTER_RESTART),
          { timeoutMs: RECOVERY_LIMIT_MS, everyMs: 100 },
        );
      } finally {
        running = false; // a failure must not leave the clients running
        await clients;
      }

      // Every answer is one the contract allows: the write's success, or a prompt 503 with Retry-After.
      const wrong: string[] = [];
      for (const { write, outcome } of attempts) {
        const what =
          `${write.method} ${write.path} ${JSON.stringify(write.body)} ` + `at +${outcome.startedAt - stopStart} ms`;
        if (outcome.error) {
          wrong.push(`${what}: ${outcome.error} after ${outcome.ms} ms`);
          continue;
        }
        try {
          validator.check({ method: write.method, url: write.path, status: outcome.status!, body: outcome.body });
        } catch (error) {
          wrong.push(`${what}: ${(error as Error).message}`);
        }
        if (outcome.status === write.okStatus) continue;
        const body = outcome.body as { error?: { sec?: string; id?: string } };
        if (
          outcome.status !== 503 ||
          body?.error?.sec !== 'SEC:000-00020' ||
          !(Number(outcome.headers['retry-after']) > 0)
        ) {
          wrong.push(
            `${what}: ${outcome.status} ${JSON.stringify(outcome.body)} ` +
              `Retry-After=${String(outcome.headers['retry-after'])}${logged(body)}`,
          );
        }
      }
      expect(wrong.slice(0, 20)).toEqual([]);

      const ok = (a: Attempt) => a.outcome.status === a.write.okStatus;
      const end = (a: Attempt) => a.outcome.startedAt + a.outcome.ms;
      const before = attempts.filter((a) => end(a) < stopStart);
      const down = attempts.filter((a) => a.outcome.startedAt > stopEnd && end(a) < restartStart);
      const after = attempts.filter((a) => a.outcome.startedAt > restartEnd);
      expect(before.filter((a) => !ok(a)).length).toBe(0);
      // Load really ran in both phases (every client sent something), without depending on the machine's speed.
      expect(before.length).toBeGreaterThanOrEqual(CLIENTS);
      expect(down.length).toBeGreaterThanOrEqual(CLIENTS);
      expect(down.filter(ok).length).toBe(0);
      expect(readyWhileDown.status).toBe(503);
      expect(Number(readyWhileDown.headers['retry-after'])).toBeGreaterThan(0);

      // The same process serves again: every client gets through within the limit, and from then on always.
      const recovery: number[] = [];
      for (let c = 0; c < CLIENTS; c++) {
        const mine = after.filter((a) => a.c === c);
        const first = mine.findIndex(ok);
        expect(first).toBeGreaterThanOrEqual(0);
        recovery.push(mine[first].outcome.startedAt + mine[first].outcome.ms - restartEnd);
        expect(
          mine
            .slice(first)
            .filter((a) => !ok(a))
            .map((a) => `${a.outcome.status} ${JSON.stringify(a.outcome.body)}`),
        ).toEqual([]);
      }
      expect(Math.max(...recovery)).toBeLessThan(RECOVERY_LIMIT_MS);
      expect((await call(base, { method: 'GET', path: '/health/ready', timeoutMs: REQUEST_TIMEOUT_MS })).status).toBe(
        200,
      );

      // The data is what the successful responses said; a write in flight when the database died may or may not
      // be there, whole.
      const inDoubt = (a: Attempt) => !ok(a) && a.outcome.startedAt <= stopEnd && end(a) >= stopStart;
      const byResource = new Map<string, Attempt[]>();
      for (const a of [...attempts].sort((x, y) => x.c - y.c || x.n - y.n))
        byResource.set(a.write.resource, [...(byResource.get(a.write.resource) ?? []), a]);
      const mismatches: string[] = [];
      let inDoubtApplied = 0;
      for (let c = 0; c < CLIENTS; c++) {
        for (let s = 0; s < SETS; s++) {
          const r = resourcesOf(c, s);
          const actual: Record<string, unknown> = {
            [`template:${r.template}`]: await readTemplate(r.template),
            [`family:${r.parent}`]: await readFamily(r.parent, r.children),
            [`card:${r.card}`]: await readCard(r.card),
          };
          const seeds: Record<string, unknown> = {
            [`template:${r.template}`]: templateView(0),
            [`family:${r.parent}`]: seededFamily(r.children),
            [`card:${r.card}`]: [] as CardState,
          };
          for (const [resource, state] of Object.entries(actual)) {
            const writes = (byResource.get(resource) ?? []).map((a) => ({
              write: a.write,
              fate: ok(a) ? ('ok' as const) : inDoubt(a) ? ('in-doubt' as const) : ('failed' as const),
            }));
            const possible = possibleStates(seeds[resource], writes).map((p) => JSON.stringify(p));
            if (!possible.includes(JSON.stringify(state))) {
              mismatches.push(`${resource}: read ${JSON.stringify(state)}, expected one of ${possible.join(' | ')}`);
            } else if (writes.some((w) => w.fate === 'in-doubt')) {
              const withoutDoubt = possibleStates(
                seeds[resource],
                writes.filter((w) => w.fate === 'ok'),
              );
              if (JSON.stringify(withoutDoubt[0]) !== JSON.stringify(state)) inDoubtApplied++;
            }
          }
        }
      }
      expect(mismatches).toEqual([]);

      const unavailable = attempts.filter((a) => a.outcome.status === 503).map((a) => a.outcome.ms);
      report('database restart', {
        requests: attempts.length,
        succeeded: attempts.filter(ok).length,
        answered503: unavailable.length,
        latency503Ms: {
          p50: percentile(unavailable, 50),
          p99: percentile(unavailable, 99),
          max: Math.max(...unavailable),
        },
        stopMs: stopEnd - stopStart,
        restartMs: restartEnd - restartStart,
        recoveryAfterRestartMs: { min: Math.min(...recovery), max: Math.max(...recovery) },
        inDoubt: attempts.filter(inDoubt).length,
        inDoubtApplied,
        successesPerSet: [0, 1, 2].map((s) => attempts.filter((a) => a.set === s && ok(a)).length),
      });
    },
    90_000,
  );

  /** What the server logged about an unexpected error: its cause, which the response rightly does not say. */
  function logged(body: { error?: { id?: string } }): string {
    const line = t.logs.find((l) => l.error_id === body?.error?.id) as
      { err?: { type?: string; message?: string; code?: string } } | undefined;
    return line?.err ? ` (logged: ${line.err.type} ${line.err.code ?? ''} ${line.err.message})` : '';
  }

  const get = async (path: string) => {
    const res = await call(base, { method: 'GET', path, auth: ws.auth.member, timeoutMs: REQUEST_TIMEOUT_MS });
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status ?? res.error} ${JSON.stringify(res.body)}`);
    return res.body as Record<string, Record<string, unknown>>;
  };

  async function readTemplate(id: string) {
    const { note_template: t } = await get(`/v1/${ws.teamId}/notes/templates/${id}`);
    return { title: t.title, context: t.context, sections: t.sections, ai_actions: t.ai_actions };
  }

  async function readFamily(parent: string, children: string[]): Promise<FamilyState> {
    const { page } = await get(`/v1/${ws.teamId}/pages/${parent}`);
    const kids = await Promise.all(children.map(async (id) => (await get(`/v1/${ws.teamId}/pages/${id}`)).page));
    // Siblings sit at exactly 0..2 under their parent, or the tree is broken.
    expect(kids.map((k) => [k.parent_page_id, k.position]).sort()).toEqual([
      [parent, 0],
      [parent, 1],
      [parent, 2],
    ]);
    return {
      parent: { title: page.title as string, hide_subpages: page.hide_subpages as boolean },
      children: [...kids]
        .sort((a, b) => (a.position as number) - (b.position as number))
        .map((k) => ({ id: k.id as string, title: k.title as string })),
    };
  }

  async function readCard(id: string): Promise<CardState> {
    const { card } = await get(`/v1/${ws.teamId}/cards/${id}`);
    return (card.tags as Array<{ id: string }>).map((tag) => tag.id);
  }
});
