/**
 * The floor's change events (`--webhook` runs): the least a correct delivery needs. In the write's
 * transaction, one event row per webhook of the workspace (none without one: one probe of webhooks);
 * after the commit, a Standard Webhooks POST signed with node:crypto, the events of one resource one
 * after another; then, a batch at a time, one statement that removes the delivered rows and logs each
 * attempt. It leaves out: retries with backoff (a POST is tried three times at once, then left
 * queued), delivery after a restart, several processes, the SSRF check, rendering views and `changed`,
 * expiry, sealed secrets (the bench stores them `plain:`), and webhooks created or deleted after the
 * first event (their url and secret are read once).
 */
import { createHmac } from 'node:crypto';
import { Agent, request } from 'node:http';
import type { Pool, PoolClient } from 'pg';
import * as sql from './statements';

/** An event row the write queued, to be sent once its transaction commits. */
export interface Queued {
  id: string;
  webhook_id: string;
  resource_key: string;
  body: string;
}

/** Delivered events are logged and removed by this many at a time, or what BATCH_WAIT_MS gathered. */
const BATCH = 32;
const BATCH_WAIT_MS = 5;
/** Tries of one POST (one on a keep-alive connection the sink has just closed fails); then it stays queued. */
const TRIES = 3;
const POST_TIMEOUT_MS = 10_000;

export interface FloorAnnouncer {
  /** In the write's transaction: queues the event for every webhook of the workspace. */
  queue(client: PoolClient, teamId: string, resourceKey: string, type: string, data: object): Promise<Queued[]>;
  /** After the commit. */
  send(queued: Queued[]): void;
}

export async function floorAnnouncer(pool: Pool): Promise<FloorAnnouncer> {
  await pool.query(sql.CREATE_OUTBOX.text);
  const agent = new Agent({ keepAlive: true });
  const webhooks = new Map<string, Promise<{ url: URL; key: Buffer }>>();
  const tails = new Map<string, Promise<void>>();
  let done: Array<{ id: string; status: number }> = [];
  let timer: NodeJS.Timeout | undefined;

  const webhook = (id: string) => {
    let found = webhooks.get(id);
    if (!found) {
      found = pool
        .query<{ url: string; secret: string }>({ ...sql.READ_WEBHOOK, values: [id] })
        .then(({ rows: [row] }) => ({
          url: new URL(row.url),
          key: Buffer.from(row.secret.replace(/^plain:whsec_/, ''), 'base64'),
        }));
      found.catch(() => webhooks.delete(id)); // read again next time
      webhooks.set(id, found);
    }
    return found;
  };

  const flush = () => {
    clearTimeout(timer);
    const batch = done;
    done = [];
    // Not logged: the events stay queued, and the run's settle says so when it gives up waiting.
    pool
      .query({ ...sql.LOG_DELIVERED, values: [batch.map((d) => d.id), batch.map((d) => d.status)] })
      .catch((error: unknown) => console.error(error));
  };

  const attempt = async (event: Queued): Promise<number> => {
    const { url, key } = await webhook(event.webhook_id);
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signature = createHmac('sha256', key).update(`${event.id}.${timestamp}.${event.body}`).digest('base64');
    return new Promise<number>((resolve) => {
      const req = request(url, {
        method: 'POST',
        agent,
        signal: AbortSignal.timeout(POST_TIMEOUT_MS),
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(event.body),
          'webhook-id': event.id,
          'webhook-timestamp': timestamp,
          'webhook-signature': `v1,${signature}`,
        },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', () => resolve(0));
      req.end(event.body);
    });
  };

  const post = async (event: Queued): Promise<void> => {
    let status = 0;
    for (let tries = 0; tries < TRIES && (status < 200 || status > 299); tries++) status = await attempt(event);
    if (status < 200 || status > 299) return console.error(`floor: event ${event.id} not delivered (${status})`);
    if (done.push({ id: event.id, status }) === 1) timer = setTimeout(flush, BATCH_WAIT_MS);
    if (done.length >= BATCH) flush();
  };

  return {
    queue: async (client, teamId, resourceKey, type, data) => {
      const body = JSON.stringify({ type, timestamp: new Date().toISOString(), data });
      const { rows } = await client.query<{ id: string; webhook_id: string }>({
        ...sql.QUEUE_EVENT,
        values: [teamId, resourceKey, type, body],
      });
      return rows.map((row) => ({ ...row, resource_key: resourceKey, body }));
    },
    send: (queued) => {
      for (const event of queued) {
        const stream = `${event.webhook_id} ${event.resource_key}`;
        const tail = (tails.get(stream) ?? Promise.resolve())
          .then(() => post(event))
          .catch((error: unknown) => console.error(error));
        tails.set(stream, tail);
        void tail.then(() => tails.get(stream) === tail && tails.delete(stream));
      }
    },
  };
}
