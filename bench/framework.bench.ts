/**
 * What the frameworks alone cost per request, with no database and no work of ours: the same small
 * JSON answer to `GET /v1/pages/:id` from bare `node:http`, bare Express 5 and a bare NestJS 11 app on
 * Express (one controller, nothing global), that app again on the service's own adapter, each in its own
 * process, under autocannon in turns.
 * It tells how much of the service's CPU per request is spent before our code runs: the figure to
 * hold against the floor's whole request (`npm run bench`, CPU ms/req of the floor).
 *
 *   npm run bench:framework [-- --seconds 10 --turns 5 --connections 16]
 *
 * Prints and writes bench/results/framework.json: requests/s and CPU ms per request of each server
 * (process.cpuUsage over its measured turns), and each one's CPU per request over node:http's.
 */
import autocannon from 'autocannon';
import { ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';
import { Framework, FRAMEWORKS } from './framework/servers';
import { environment, parseArgs, writeResult } from './support/report';

interface Server {
  framework: Framework;
  child: ChildProcess;
  url: string;
}

function ask<T>(child: ChildProcess, type: string): Promise<T> {
  return new Promise((resolve) => {
    const listener = (message: { type: string } & T) => {
      if (message.type !== type) return;
      child.off('message', listener);
      resolve(message);
    };
    child.on('message', listener);
    if (type !== 'ready') child.send({ type });
  });
}

async function start(framework: Framework): Promise<Server> {
  const child = fork(join(__dirname, 'framework', 'child.js'), [framework], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const { port } = await ask<{ port: number }>(child, 'ready');
  return { framework, child, url: `http://127.0.0.1:${port}/v1/pages/12` };
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2), { seconds: 10, turns: 5, connections: 16 });
  const servers = await Promise.all(FRAMEWORKS.map(start));
  const totals = new Map(FRAMEWORKS.map((f) => [f, { answered: 0, cpuMs: 0, seconds: 0 }]));
  for (const server of servers) await autocannon({ url: server.url, connections: options.connections, duration: 2 });
  const slice = Math.max(1, Math.round(options.seconds / options.turns));
  for (let turn = 0; turn < options.turns; turn++) {
    // The order rotates, so a machine that slows down or speeds up moves every server alike.
    for (let i = 0; i < servers.length; i++) {
      const server = servers[(turn + i) % servers.length];
      await ask(server.child, 'reset');
      await autocannon({ url: server.url, connections: options.connections, duration: slice });
      const stats = await ask<{ answered: number; cpuMs: number }>(server.child, 'stats');
      const total = totals.get(server.framework)!;
      total.answered += stats.answered;
      total.cpuMs += stats.cpuMs;
      total.seconds += slice;
    }
  }
  for (const server of servers) server.child.kill();
  const cpu = (f: Framework) => totals.get(f)!.cpuMs / totals.get(f)!.answered;
  const results = FRAMEWORKS.map((f) => ({
    framework: f,
    rps: Math.round(totals.get(f)!.answered / totals.get(f)!.seconds),
    cpu_ms_per_request: Number(cpu(f).toFixed(4)),
    cpu_over_node_http: Number((cpu(f) / cpu('node:http')).toFixed(2)),
  }));
  console.log(
    [
      'framework    req/s   CPU ms/req   × node:http',
      ...results.map(
        (r) =>
          `${r.framework.padEnd(10)} ${String(r.rps).padStart(7)}   ` +
          `${r.cpu_ms_per_request.toFixed(4).padStart(10)}   ` +
          `${r.cpu_over_node_http.toFixed(2).padStart(11)}`,
      ),
    ].join('\n'),
  );
  console.log(`wrote ${await writeResult('framework', { ...environment(), options, results })}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
