import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Pool } from 'pg';
import { BenchApp } from '../support/bench-app';
import type { Settle } from './load-run';

/**
 * `--webhook`: one webhook subscribed to every event of each bench workspace, delivered to a sink on
 * loopback that answers 204 (the servers run with WEBHOOK_ALLOW_PRIVATE_URLS=true). Every write then
 * stores its event and delivery, and the app's worker delivers them (the baseline's too) while the load
 * runs and before the next turn (deliveriesSettled); the floor stores and sends its own (floor/announcer.ts).
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

/** Longest a turn's deliveries are waited for. */
const SETTLE_LIMIT_MS = 120_000;

/**
 * `--webhook`'s settle (load-run.ts): waits until no delivery is pending, the floor's included, so that
 * each turn's time counts the delivery of the events its writes stored, and the next turn does not share
 * the cores with them.
 */
export function deliveriesSettled(databaseUrl: string): { settle: Settle; close: () => Promise<void> } {
  // The pending deliveries' partial index answers at once; on tables last analyzed empty the planner picks a scan.
  const pool = new Pool({ connectionString: databaseUrl, max: 1, options: '-c enable_seqscan=off' });
  const pending = async () =>
    (
      await pool.query<{ any: boolean }>(
        `SELECT EXISTS (SELECT FROM webhook_deliveries WHERE state = 'pending')
                OR EXISTS (SELECT FROM floor_webhook_events) AS any`,
      )
    ).rows[0].any;
  const settle = async () => {
    const deadline = Date.now() + SETTLE_LIMIT_MS;
    while (await pending()) {
      if (Date.now() > deadline) throw new Error(`webhook deliveries still pending after ${SETTLE_LIMIT_MS} ms`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  return { settle, close: () => pool.end() };
}
