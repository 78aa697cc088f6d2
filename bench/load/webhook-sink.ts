import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { BenchApp } from '../support/bench-app';

/**
 * `--webhook`: one webhook subscribed to every event of each bench workspace, delivered to a sink on
 * loopback that answers 204 (the servers run with WEBHOOK_ALLOW_PRIVATE_URLS=true). Every write then
 * stores its event and delivery, and the app's worker delivers them while the load runs.
 */
export async function subscribeToSink(bench: BenchApp, teamIds: string[]): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(204).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sink`;
  process.env.WEBHOOK_ALLOW_PRIVATE_URLS = 'true';
  for (const teamId of teamIds)
    await bench.db.query(
      `INSERT INTO webhooks (team_id, url, events, secret, created_by)
       VALUES ($1, $2, ARRAY['*'], $3, '{"type": "user"}')`,
      [teamId, url, `plain:whsec_${Buffer.alloc(32, 7).toString('base64')}`],
    );
  return { server, url };
}
