import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startThrowawayPostgres, ThrowawayPostgres } from '../../src/database/embedded/throwaway-postgres';
import { importDocument, seedWorkspace, Workspace } from '../support/fixtures';
import { createTestApp, TestApp } from '../support/test-app';
import { percentile, report } from './fault-report';
import { holdFor, waitFor } from '../support/wait-for';
import { call, Outcome } from './http-client';
import { seedDocument, writeFor } from './write-model';

const CLIENTS = 8;
const FROZEN_MS = 12_000;
const REQUEST_TIMEOUT_MS = 10_000;
/** Requests each client makes once the database has been back a second: all must succeed. */
const SERVED_AFTER_THAW = 5;
/** How long they may take: a loaded machine serves slower, but within this it serves again. */
const SERVED_WITHIN_MS = 20_000;

/** Every process of the cluster: the postmaster (first line of postmaster.pid) and its children. */
function clusterPids(dataDir: string): number[] {
  const postmaster = Number(readFileSync(join(dataDir, 'cluster', 'postmaster.pid'), 'utf8').split('\n')[0]);
  const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(postmaster)], { encoding: 'utf8' });
  return [
    postmaster,
    ...children
      .split('\n')
      .map(Number)
      .filter((pid) => pid > 0),
  ];
}

/**
 * PostgreSQL stops answering without closing anything (all its processes SIGSTOPped, as in a
 * network partition or a stalled host): no request may hang longer than 10 s, and once it answers
 * again the same app serves again.
 */
describe('the database stops answering', () => {
  let postgres: ThrowawayPostgres;
  let t: TestApp;
  let ws: Workspace;
  let base: string;
  let frozen: number[] = [];

  beforeAll(async () => {
    postgres = await startThrowawayPostgres();
    t = await createTestApp({ DATABASE_URL: postgres.url, RUN_MIGRATIONS: 'true', LOG_LEVEL: 'error' });
    ws = await seedWorkspace(t.app);
    await importDocument(t.app, seedDocument(ws, CLIENTS, 1));
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as { port: number }).port}`;
  }, 60_000);

  afterAll(async () => {
    frozen.forEach((pid) => process.kill(pid, 'SIGCONT'));
    await t?.close();
    await postgres?.destroy();
  });

  it('answers every request within 10 s while it is frozen, and serves again after', async () => {
    const attempts: Array<{ c: number; phase: string; outcome: Outcome }> = [];
    let phase = 'up';
    let running = true;
    const client = async (c: number) => {
      for (let n = 1; running; n++) {
        const write = writeFor(ws.teamId, c, 0, n, n);
        const current = phase;
        const outcome = await call(base, {
          method: write.method,
          path: write.path,
          auth: ws.auth.member,
          body: write.body,
          timeoutMs: REQUEST_TIMEOUT_MS + 5000,
        });
        attempts.push({ c, phase: current, outcome });
        await holdFor(20, "a client's pause between requests");
      }
    };
    const clients = Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));
    try {
      await holdFor(1000, 'the load runs on the database before it freezes');
      frozen = clusterPids(postgres.dataDir);
      const frozenAt = Date.now();
      frozen.forEach((pid) => process.kill(pid, 'SIGSTOP'));
      phase = 'frozen';
      await holdFor(FROZEN_MS, 'PostgreSQL stays frozen');
      frozen.forEach((pid) => process.kill(pid, 'SIGCONT'));
      frozen = [];
      const thawedAt = Date.now();
      phase = 'thawed';
      // Serving again is counted in requests per client, not in a time window a slow machine would leave short.
      const afterThaw = () => attempts.filter((a) => a.outcome.startedAt > thawedAt + 1000);
      const shortClients = () =>
        Array.from({ length: CLIENTS }, (_, c) => afterThaw().filter((a) => a.c === c).length).filter(
          (n) => n < SERVED_AFTER_THAW,
        );
      await waitFor(
        `every client served ${SERVED_AFTER_THAW} times a second after the thaw (clients short of it)`,
        shortClients,
        (short) => short.length === 0,
        { timeoutMs: SERVED_WITHIN_MS, everyMs: 100 },
      ).catch(() => undefined); // the assertions below say what was short, with the report before them
      running = false;
      await clients;

      const summary = (list: typeof attempts) => {
        const statuses: Record<string, number> = {};
        list.forEach(
          (a) =>
            (statuses[a.outcome.error ?? String(a.outcome.status)] =
              (statuses[a.outcome.error ?? String(a.outcome.status)] ?? 0) + 1),
        );
        const ms = list.map((a) => a.outcome.ms);
        return { statuses, p50: percentile(ms, 50), max: Math.max(...ms) };
      };
      report('database frozen', {
        frozenMs: thawedAt - frozenAt,
        up: summary(attempts.filter((a) => a.phase === 'up')),
        frozen: summary(attempts.filter((a) => a.phase === 'frozen')),
        thawed: summary(attempts.filter((a) => a.phase === 'thawed')),
        slowest: [...attempts]
          .sort((a, b) => b.outcome.ms - a.outcome.ms)
          .slice(0, 5)
          .map((a) => ({
            ms: a.outcome.ms,
            at: a.outcome.startedAt - frozenAt,
            status: a.outcome.status ?? a.outcome.error,
            sec: (a.outcome.body as { error?: { sec?: string } })?.error?.sec,
          })),
      });
      const late = attempts.filter((a) => a.outcome.ms > REQUEST_TIMEOUT_MS || a.outcome.error);
      expect(late.map((a) => `${a.outcome.error ?? a.outcome.status} after ${a.outcome.ms} ms`)).toEqual([]);
      const wrong = attempts.filter(
        (a) => a.outcome.status !== 200 && a.outcome.status !== 204 && a.outcome.status !== 503,
      );
      expect(wrong.map((a) => `${a.outcome.status} ${JSON.stringify(a.outcome.body)}`)).toEqual([]);
      // Serving again: a second after it thaws, every client's requests succeed.
      expect(shortClients()).toEqual([]);
      expect(
        afterThaw()
          .filter((a) => a.outcome.status !== 200 && a.outcome.status !== 204)
          .map((a) => a.outcome.status),
      ).toEqual([]);
    } finally {
      running = false;
      await clients;
    }
  }, 60_000);
});
