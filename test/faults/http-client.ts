import { Agent, request } from 'node:http';

export interface CallOptions {
  method: 'GET' | 'PATCH' | 'POST' | 'PUT';
  path: string;
  auth?: string;
  body?: unknown;
  /** More request headers. */
  headers?: Record<string, string>;
  /** The whole exchange, connect to last byte; past it the call is abandoned and reported as `timeout`. */
  timeoutMs: number;
  /** A keep-alive agent to reuse connections; by default every call opens a connection of its own. */
  agent?: Agent;
}

/** What one call saw: a response, or the transport error that prevented one. */
export interface Outcome {
  status?: number;
  headers: Record<string, string | string[] | undefined>;
  body?: unknown;
  /** `timeout`, or the socket error's code (ECONNREFUSED, ECONNRESET, ...). */
  error?: string;
  startedAt: number;
  ms: number;
}

/**
 * One HTTP call, by default on a connection of its own (no keep-alive), so that each call shows
 * whether the server accepts new connections; a hung server shows up as `timeout`, not a hung test.
 */
export function call(baseUrl: string, options: CallOptions): Promise<Outcome> {
  const startedAt = Date.now();
  const payload = options.body === undefined ? undefined : Buffer.from(JSON.stringify(options.body));
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: Omit<Outcome, 'startedAt' | 'ms'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...outcome, startedAt, ms: Date.now() - startedAt });
    };
    const req = request(
      new URL(options.path, baseUrl),
      {
        method: options.method,
        agent: options.agent ?? false,
        headers: {
          ...options.headers,
          ...(options.auth ? { authorization: options.auth } : {}),
          ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', (error: NodeJS.ErrnoException) => finish({ headers: {}, error: error.code ?? error.message }));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text;
          try {
            body = text === '' ? undefined : JSON.parse(text);
          } catch {
            // not JSON: keep the text, the caller's checks will say so
          }
          finish({ status: res.statusCode, headers: res.headers, body });
        });
      },
    );
    const timer = setTimeout(() => {
      finish({ headers: {}, error: 'timeout' });
      req.destroy();
    }, options.timeoutMs);
    req.on('error', (error: NodeJS.ErrnoException) => finish({ headers: {}, error: error.code ?? error.message }));
    req.end(payload);
  });
}
