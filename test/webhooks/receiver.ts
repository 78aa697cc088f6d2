import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo, Socket } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { holdFor, waitFor } from '../support/wait-for';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  /** The parsed body. */
  event: { type: string; timestamp: string; data: Record<string, unknown> };
  /** What the receiver answered. */
  status: number;
  /** The connection it came on: 1 for the receiver's first, and so on. */
  connection: number;
}

/** What to answer a request: a status (200 by default), or 0 to hold it unanswered until the receiver closes. */
export type Answer = (request: Omit<Received, 'status' | 'connection'>, count: number) => number;

/** A webhook receiver on loopback that keeps every request and answers as told. */
export class Receiver {
  readonly received: Received[] = [];
  answer: Answer = () => 200;
  /** How long each answer is held back. */
  holdMs = 0;
  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(path = '/hook'): Promise<Receiver> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const receiver = new Receiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`);
    const connections = new WeakMap<Socket, number>();
    let opened = 0;
    server.on('connection', (socket) => connections.set(socket, ++opened));
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        // Not a delivery (another process's request, on a port it thought free): refused, not recorded.
        if (req.method !== 'POST' || req.url !== path) return void res.writeHead(404).end();
        const request = { headers: req.headers, body, event: JSON.parse(body) as Received['event'] };
        const status = receiver.answer(request, receiver.received.length);
        receiver.received.push({ ...request, status, connection: connections.get(req.socket) ?? 0 });
        if (status !== 0)
          void holdFor(receiver.holdMs, 'the receiver takes its time').then(() => res.writeHead(status).end());
      });
    });
    return receiver;
  }

  /** The requests for events matching `where`, in arrival order. */
  events(where: (event: Received['event']) => boolean = () => true): Received[] {
    return this.received.filter((r) => where(r.event));
  }

  /** Waits until `count` requests match `where` (failing after `timeoutMs`), and returns them. */
  async waitFor(count: number, where: (event: Received['event']) => boolean = () => true, timeoutMs = 20_000) {
    await waitFor(
      `${count} matching webhook requests`,
      () => this.events(where).length,
      (matching) => matching >= count,
      { timeoutMs },
    ).catch((error: Error) => {
      const all = this.received.map((r) => [r.headers['webhook-id'], r.event.type, r.status]);
      throw new Error(`${error.message}; every request received: ${JSON.stringify(all)}`);
    });
    return this.events(where);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** Verifies a request as a receiver would, with the Standard Webhooks library; throws when it does not verify. */
export function verify(secret: string, request: Received): unknown {
  return new Webhook(secret).verify(request.body, {
    'webhook-id': String(request.headers['webhook-id']),
    'webhook-timestamp': String(request.headers['webhook-timestamp']),
    'webhook-signature': String(request.headers['webhook-signature']),
  });
}

/**
 * The webhook settings every app and server of the webhook specs runs with, so that whichever of them
 * attempts a delivery, it follows the same rules: delivery on, loopback allowed, short polls and backoff,
 * events given up 6 s after they happened, and one base of public page URLs (the payload of a page event
 * is rendered by the process that delivers it).
 */
export const WEBHOOK_TEST_ENV = {
  WEBHOOK_DELIVERY: 'true',
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  WEBHOOK_POLL_INTERVAL_MS: '50',
  WEBHOOK_RETRY_BASE_MS: '200',
  WEBHOOK_RETRY_WINDOW_MS: '6000',
  WEBHOOK_SECRET_KEY: 'a-test-key-of-at-least-thirty-two-characters',
  PUBLIC_PAGES_BASE_URL: 'https://pages.example.com/p',
};
