import { Agent as HttpAgent, request as httpRequest, RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { Webhook } from 'standardwebhooks';
import { hostOf, NonPublicAddressError, nonPublicRange, publicOnlyLookup } from './public-address';

/** A receiver has this long to answer; past it the attempt failed. */
export const DELIVERY_TIMEOUT_MS = 10_000;

export interface Delivery {
  url: string;
  /** The webhook's secret, ready to sign with (one per webhook, not per attempt). */
  signer: Webhook;
  /** The event id: the same webhook-id on every attempt. */
  eventId: string;
  body: string;
}

/** What an attempt got: the receiver's status, or null and why when it could not be reached. */
export interface AttemptResult {
  status: number | null;
  error?: string;
}

/** The Standard Webhooks headers of one attempt, signed with the `standardwebhooks` library. */
export function signedHeaders(delivery: Delivery, at: Date): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': 'workspace-content-api-webhooks/0.1',
    'webhook-id': delivery.eventId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': delivery.signer.sign(delivery.eventId, at, delivery.body),
  };
}

/** An idle connection to a receiver is closed after this long (or sooner, as its Keep-Alive header asks). */
const IDLE_CONNECTION_MS = 4_000;

/**
 * Connections kept open between attempts to one receiver: a new one costs both sides more than the
 * attempt. Each was made to an address checked as it connected, by a sender with the same
 * WEBHOOK_ALLOW_PRIVATE_URLS, so a checked attempt never reuses an unchecked connection.
 */
const agents = new Map<string, HttpAgent>();
function agentFor(protocol: string, allowPrivate: boolean): HttpAgent {
  const name = `${protocol} ${allowPrivate}`;
  let agent = agents.get(name);
  if (!agent) {
    const options = { keepAlive: true, timeout: IDLE_CONNECTION_MS, scheduling: 'lifo' as const };
    agent = protocol === 'https:' ? new HttpsAgent(options) : new HttpAgent(options);
    agents.set(name, agent);
  }
  return agent;
}

/**
 * POSTs one attempt. node:http does not follow redirects, so a 3xx is a failed attempt like any
 * other non-2xx. Unless private addresses are allowed, the address of each new connection is checked
 * first (an IP literal here, a name in publicOnlyLookup).
 */
export function send(delivery: Delivery, allowPrivate: boolean): Promise<AttemptResult> {
  const url = new URL(delivery.url);
  const host = hostOf(url);
  const range = nonPublicRange(host);
  if (!allowPrivate && range !== null && range !== 'invalid')
    return Promise.resolve({ status: null, error: new NonPublicAddressError(host, host, range).message });
  const signal = AbortSignal.timeout(DELIVERY_TIMEOUT_MS);
  const options: RequestOptions = {
    method: 'POST',
    headers: { ...signedHeaders(delivery, new Date()), 'content-length': Buffer.byteLength(delivery.body) },
    signal,
    agent: agentFor(url.protocol, allowPrivate),
    ...(allowPrivate ? {} : { lookup: publicOnlyLookup }),
  };
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const req = request(url, options, (res) => {
      // The status decides; the body is only drained (and cut off by the timeout if it never ends).
      resolve({ status: res.statusCode ?? null });
      res.on('error', () => undefined);
      res.resume();
    });
    req.on('error', (error: Error) =>
      resolve({ status: null, error: signal.aborted ? `no answer within ${DELIVERY_TIMEOUT_MS} ms` : error.message }),
    );
    req.end(delivery.body);
  });
}
