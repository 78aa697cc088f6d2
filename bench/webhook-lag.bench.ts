/**
 * How soon a change reaches its one subscriber, and what an idle delivery worker costs.
 *
 *   npm run bench:webhook-lag [-- --concurrency 16 --warmup 2 --duration 6 --idle-seconds 60]
 *
 * The app runs in its own process as users run it (bench/load/server-child.ts: every setting at its
 * default or the environment's, WEBHOOK_POLL_INTERVAL_MS 1000), on a database seeded by an in-process
 * app that delivers nothing. One webhook subscribed to every event of a workspace, delivered to a sink
 * on loopback in this process that answers 204 at once. `--concurrency` clients each PATCH the titles
 * of templates of their own, for `--warmup` seconds whose changes are not counted (the app's first
 * connections to the database and the sink, its code not yet optimised), then `--duration` seconds,
 * as fast as answers come; each title is unique,
 * so the sink knows which request an event is of. The lag of an event is from the moment its client
 * read the 2xx to the moment the sink received it (0 when it arrived first): p50, p90, p99, max. Then
 * the app is left idle for `--idle-seconds` and every statement its pg clients send is counted
 * (server-child.ts's `queries`): the worker's polls and housekeeping, per minute. Writes
 * bench/results/webhook-lag.json.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { startServer } from './load/servers';
import { startBenchApp } from './support/bench-app';
import { send } from './support/http';
import { quantile } from './support/latency';
import { environment, parseArgs, postgresVersion, writeResult } from './support/report';

const TEMPLATES_PER_CLIENT = 8;
const DRAIN_LIMIT_MS = 60_000;

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2), { concurrency: 16, duration: 6, warmup: 2, 'idle-seconds': 60 });
  process.env.WEBHOOK_ALLOW_PRIVATE_URLS = 'true'; // the app's child inherits it
  const bench = await startBenchApp({ WEBHOOK_DELIVERY: 'false' });
  const delivered = new Map<string, number>();
  const sink = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const at = performance.now();
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        data: { note_template?: { title: string } };
      };
      if (event.data.note_template) delivered.set(event.data.note_template.title, at);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  let stopApp: () => Promise<void> = () => Promise.resolve();
  try {
    const teamId = `lag${Date.now().toString(36)}${randomBytes(4).toString('hex')}`;
    const userId = `${teamId}-owner`;
    const secret = `bench-${randomBytes(16).toString('hex')}`;
    const templates = options.concurrency * TEMPLATES_PER_CLIENT;
    await bench.importDocument({
      workspaces: [{ id: teamId, name: 'Webhook lag benchmark' }],
      users: [{ id: userId, name: 'Bench owner', email: `owner@${teamId}.example.com` }],
      members: [{ team_id: teamId, user_id: userId, role: 'owner' }],
      tokens: [
        {
          id: 'bench-owner',
          team_id: teamId,
          user_id: userId,
          token: secret,
          expires_at: null,
          actor: { type: 'user' },
        },
      ],
      note_templates: Array.from({ length: templates }, (_, i) => ({
        team_id: teamId,
        id: `tpl${i + 1}`,
        owner_id: userId,
        title: `Template ${i + 1}`,
        context: '',
        sections: [{ title: 'Today', description: '' }],
        ai_actions: false,
        is_shared: false,
      })),
    });
    const sinkUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}/sink`;
    await bench.db.query(
      `INSERT INTO webhooks (team_id, url, events, secret, created_by)
       VALUES ($1, $2, ARRAY['*'], $3, '{"type": "user"}')`,
      [teamId, sinkUrl, `plain:whsec_${Buffer.alloc(32, 7).toString('base64')}`],
    );
    await bench.db.query('ANALYZE note_templates, webhooks');
    const app = await startServer('app', bench.database.url);
    stopApp = () => app.stop();

    // ---- the load: each client its own templates, one request at a time; the warm-up's changes uncounted ----
    const answered = new Map<string, number>();
    const measuredFrom = performance.now() + options.warmup * 1000;
    const until = measuredFrom + options.duration * 1000;
    let sequence = 0;
    const client = async (c: number) => {
      for (let i = 0; performance.now() < until; i++) {
        const template = `tpl${c * TEMPLATES_PER_CLIENT + (i % TEMPLATES_PER_CLIENT) + 1}`;
        const title = `lag ${sequence++}`;
        await send(`${app.baseUrl}/v1/${teamId}/notes/templates/${template}`, {
          method: 'PATCH',
          auth: `Bearer ${secret}`,
          body: JSON.stringify({ title }),
          expect: 200,
        });
        const at = performance.now();
        if (at >= measuredFrom) answered.set(title, at);
      }
    };
    await Promise.all(Array.from({ length: options.concurrency }, (_, c) => client(c)));
    const drainUntil = Date.now() + DRAIN_LIMIT_MS;
    const undelivered = () => [...answered.keys()].filter((title) => !delivered.has(title)).length;
    while (undelivered() > 0 && Date.now() < drainUntil) await new Promise((resolve) => setTimeout(resolve, 20));
    const lags = [...answered].map(([title, at]) => Math.max(0, (delivered.get(title) ?? Infinity) - at));
    lags.sort((a, b) => a - b);
    const lag = {
      changes: answered.size,
      changes_per_s: Math.round(answered.size / options.duration),
      undelivered: undelivered(),
      p50_ms: quantile(lags, 0.5),
      p90_ms: quantile(lags, 0.9),
      p99_ms: quantile(lags, 0.99),
      max_ms: lags[lags.length - 1],
    };
    console.log(`webhook lag, c=${options.concurrency}, ${options.duration} s:`, JSON.stringify(lag));

    // ---- idle: what the process sends while nothing happens ----
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const idleSeconds = options['idle-seconds'];
    await app.reset();
    await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
    const { queries } = await app.stats();
    const perMinute = Math.round((queries * 60) / idleSeconds);
    console.log(`idle, ${idleSeconds} s: ${queries} statements (${perMinute} a minute)`);

    await writeResult('webhook-lag', {
      environment: environment(),
      postgres: await postgresVersion(bench.db),
      options,
      lag,
      idle: { seconds: idleSeconds, statements: queries, per_minute: perMinute },
    });
  } finally {
    await stopApp();
    sink.closeAllConnections();
    sink.close();
    await bench.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
