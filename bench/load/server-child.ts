/**
 * One server under load, in its own process so that its RSS and its SQL round trips are its own:
 * `node server-child.js app` (the real app, built like src/main.ts by bench/support/bench-app.ts, with
 * logging at info and the rate limiter on), `node server-child.js baseline` (bench/baseline/server.ts)
 * or `node server-child.js floor` (bench/floor/server.ts), on DATABASE_URL. Talks to the driver
 * over the IPC channel of child_process.fork:
 *   -> {type: 'ready', port}                      once listening
 *   <- {type: 'reset'}                            zero the counters (before a measured run)
 *   <- {type: 'stats'} -> {type: 'stats', queries, answered, peakRssMb, rssMb, heapUsedMb, cpuMs}
 * cpuMs is the process's user + system CPU time since the last reset (process.cpuUsage): what one
 * server spends per request, whatever the load generator and PostgreSQL take from the shared cores.
 * Round trips are counted as support/statement-counter.ts counts them: by wrapping
 * pg.Client.prototype.query, which the app's pool (TypeORM) and the others' pools all go through (a
 * named prepared statement is one call and one round trip: Parse is sent with the first Bind);
 * answered requests by wrapping http.ServerResponse.prototype.end, which every server's answers go
 * through. Counted here, a request still in flight when the load generator stops a turn counts with
 * its round trips and CPU, where the generator's count would leave it out.
 */
import pg from 'pg';
import { countAnswers } from '../support/count-answers';
import type { AddressInfo } from 'node:net';

const MB = 1024 * 1024;
/** The highest limit the service accepts (src/config/app-config.ts): 16,666 requests/s with one token. */
const RATE_LIMIT_PER_MINUTE = 1_000_000;
let queries = 0;
let answered = 0;
let peakRss = 0;
let cpuAtReset = process.cpuUsage();

function installProbe(): void {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    queries++;
    return original.apply(this, args);
  };
  countAnswers(() => answered++);
  const sample = () => (peakRss = Math.max(peakRss, process.memoryUsage.rss()));
  setInterval(sample, 100).unref();
  process.on('message', (message: { type: string }) => {
    if (message.type === 'reset') {
      queries = 0;
      answered = 0;
      cpuAtReset = process.cpuUsage();
      peakRss = process.memoryUsage.rss();
      process.send!({ type: 'reset' });
    } else if (message.type === 'stats') {
      sample();
      const cpu = process.cpuUsage(cpuAtReset);
      const memory = process.memoryUsage();
      process.send!({
        type: 'stats',
        queries,
        answered,
        peakRssMb: peakRss / MB,
        rssMb: memory.rss / MB,
        heapUsedMb: memory.heapUsed / MB,
        cpuMs: (cpu.user + cpu.system) / 1000,
      });
    }
  });
}

async function main(): Promise<void> {
  const kind = process.argv[2];
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl || !process.send) throw new Error('server-child runs forked by the load driver, with DATABASE_URL');
  installProbe();
  let port: number;
  if (kind === 'app') {
    const { startBenchApp } = await import('../support/bench-app');
    // As users run it: logging at info (stdout goes to /dev/null), the rate limiter on with a limit no
    // run reaches, the token cache and every other setting at their defaults or the environment's.
    const limit = String(RATE_LIMIT_PER_MINUTE);
    const bench = await startBenchApp({
      LOG_LEVEL: 'info',
      RATE_LIMIT_PER_MINUTE: limit,
      PUBLIC_RATE_LIMIT_PER_MINUTE: limit,
    });
    port = (bench.app.getHttpServer().address() as AddressInfo).port;
  } else if (kind === 'baseline' || kind === 'floor') {
    const settings = {
      databaseUrl,
      poolSize: Number(process.env.DB_POOL_SIZE ?? 10),
      statementTimeoutMs: Number(process.env.DB_STATEMENT_TIMEOUT_MS ?? 5000),
      // `--webhook`: the floor stores and delivers its events too (floor/announcer.ts).
      webhooks: process.env.BENCH_WEBHOOKS === 'true',
    };
    if (kind === 'baseline') port = (await (await import('../baseline/server')).startBaseline(settings)).port;
    else port = (await (await import('../floor/server')).startFloor(settings)).port;
  } else {
    throw new Error(`server-child: unknown kind ${kind}`);
  }
  process.send({ type: 'ready', port });
  // The driver ends this process (SIGTERM) or goes away (the IPC channel closes). Exiting through
  // process.exit lets `--cpu-prof` write its profile, which a death by signal would not.
  process.on('disconnect', () => process.exit(0));
  process.on('SIGTERM', () => process.exit(0));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
