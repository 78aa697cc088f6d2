import { join } from 'node:path';
import { freePort } from '../../support/free-port';
import { call } from '../faults/http-client';
import { useServerProcesses } from '../faults/server-process';
import { createMigratedDatabase } from '../support/empty-database';
import { seedWorkspace } from '../support/fixtures';
import { useScene } from '../support/scene';
import { createTestApp } from '../support/test-app';
import { waitFor } from '../support/wait-for';
import { Receiver, WEBHOOK_TEST_ENV } from '../webhooks/receiver';
import { ofTeam } from '../webhooks/webhook-fixtures';

const PRELOAD = join(__dirname, 'trace-preload.js');
/** Twice the server's 10 s REQUEST_TIMEOUT_MS: it answers every request before, however loaded the machine. */
const TIMEOUT_MS = 20_000;
/** A step that waits for one request, or for spans the server dumps after it. */
const STEP_MS = TIMEOUT_MS + 2000;

interface DumpedSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes: Record<string, unknown>;
  links: Array<{ traceId: string; spanId: string }>;
}

/** The compiled server, preloaded with trace-preload.js; the in-process app seeds. */
describe('OpenTelemetry traces', () => {
  jest.setTimeout(180_000); // above the sum of a test's step deadlines, so a step reports what waited
  const s = useScene();
  const { start, step } = useServerProcesses(['-r', PRELOAD]);

  const dump = async <T>(port: number): Promise<T> => (await fetch(`http://127.0.0.1:${port}/`)).json() as Promise<T>;
  /** The spans dumped on `port` once `found` is among them (they are exported after the response). */
  const spansOnceThere = (port: number, what: string, found: (spans: DumpedSpan[]) => boolean) =>
    step(`the ${what} span is exported`, STEP_MS, () =>
      waitFor(`the ${what} span among the exported spans`, () => dump<DumpedSpan[]>(port), found, {
        timeoutMs: TIMEOUT_MS,
        everyMs: 100,
      }),
    );

  it('a PATCH is an HTTP span with the request id, over the Nest handler span, over the statement spans', async () => {
    const dumpPort = await freePort();
    const server = await start({ TRACE_DUMP_PORT: String(dumpPort) });
    const auth = s.ws.auth.member;
    const created = await call(server.baseUrl, {
      method: 'POST',
      path: `/v1/${s.ws.teamId}/pages`,
      auth,
      body: { project_id: s.ws.projectId, title: 'Traced' },
      timeoutMs: TIMEOUT_MS,
    });
    expect({ status: created.status, error: created.error }).toEqual({ status: 201, error: undefined });
    const pageId = (created.body as { page: { id: string } }).page.id;
    const patched = await call(server.baseUrl, {
      method: 'PATCH',
      path: `/v1/${s.ws.teamId}/pages/${pageId}`,
      auth,
      body: { title: 'Traced again' },
      headers: { 'X-Request-Id': 'trace-me-1' },
      timeoutMs: TIMEOUT_MS,
    });
    expect(patched.status).toBe(200);

    const spans = await spansOnceThere(dumpPort, 'PATCH', (all) =>
      all.some((span) => span.attributes['http.request.id'] === 'trace-me-1'),
    );
    const http = spans.find((span) => span.attributes['http.request.id'] === 'trace-me-1');
    expect(http?.name).toMatch(/^PATCH/);
    const trace = spans.filter((span) => span.traceId === http!.traceId);
    const byId = new Map(trace.map((span) => [span.spanId, span]));
    const ancestors = (span: DumpedSpan): DumpedSpan[] => {
      const parent = span.parentSpanId ? byId.get(span.parentSpanId) : undefined;
      return parent ? [parent, ...ancestors(parent)] : [];
    };
    const handler = trace.find((span) => span.attributes['nestjs.type'] === 'handler');
    expect(handler).toBeDefined();
    expect(ancestors(handler!)).toContain(http);
    // The page's write statement, under the handler, named by its catalogue name and not its text.
    const statement = trace.find((span) => /^write_page/.test(span.name));
    expect(statement).toBeDefined();
    expect(ancestors(statement!)).toEqual(expect.arrayContaining([handler, http]));
    expect(trace.filter((span) => /\s(FROM|SET|INTO)\s/i.test(span.name)).map((span) => span.name)).toEqual([]);
  });

  it('a webhook delivery is a span of its own trace, linked to the request that made the change', async () => {
    // A database of its own: the delivering server would deliver other specs' events too.
    const database = await createMigratedDatabase();
    const seeder = await createTestApp({ DATABASE_URL: database.url });
    const receiver = await Receiver.start();
    try {
      const dumpPort = await freePort();
      const env = { ...WEBHOOK_TEST_ENV, DATABASE_URL: database.url, TRACE_DUMP_PORT: String(dumpPort) };
      const server = await start(env);
      const ws = await seedWorkspace(seeder.app);
      const send = (method: 'POST' | 'PATCH', path: string, body: object, headers: Record<string, string> = {}) =>
        call(server.baseUrl, {
          method,
          path: `/v1/${ws.teamId}${path}`,
          auth: ws.auth.owner,
          body,
          headers,
          timeoutMs: TIMEOUT_MS,
        });
      const subscribed = await send('POST', '/webhooks', { url: receiver.url, events: ['page.updated'] });
      expect(subscribed.status).toBe(201);
      const webhookId = (subscribed.body as { webhook: { id: string } }).webhook.id;
      const created = await send('POST', '/pages', { project_id: ws.projectId, title: 'Delivered' });
      const pageId = (created.body as { page: { id: string } }).page.id;
      const patched = await send(
        'PATCH',
        `/pages/${pageId}`,
        { title: 'Delivered again' },
        { 'X-Request-Id': 'trace-me-2' },
      );
      expect(patched.status).toBe(200);
      await step('the change is delivered', STEP_MS, () => receiver.waitFor(1, ofTeam(ws), TIMEOUT_MS));

      const delivery = (spans: DumpedSpan[]) =>
        spans.find(
          (span) =>
            span.name === 'webhook delivery' &&
            span.attributes['webhook.id'] === webhookId &&
            span.attributes['http.response.status_code'] !== undefined,
        );
      const spans = await spansOnceThere(dumpPort, 'webhook delivery', (all) => delivery(all) !== undefined);
      const request = spans.find((span) => span.attributes['http.request.id'] === 'trace-me-2')!;
      const delivered = delivery(spans)!;
      expect(delivered.attributes['http.response.status_code']).toBe(200);
      expect(delivered.traceId).not.toBe(request.traceId);
      // The link names a span of the request's trace: the one in which the change was written.
      expect(delivered.links).toHaveLength(1);
      const [link] = delivered.links;
      expect(link.traceId).toBe(request.traceId);
      expect(spans.some((span) => span.traceId === request.traceId && span.spanId === link.spanId)).toBe(true);
      // The POST to the receiver is the http instrumentation's span, under the delivery's.
      expect(spans.some((span) => span.parentSpanId === delivered.spanId && /^POST/.test(span.name))).toBe(true);
    } finally {
      await receiver.close();
      await seeder.close();
      await database.drop();
    }
  });

  it('loads no OpenTelemetry SDK or instrumentation without OTEL_EXPORTER_OTLP_ENDPOINT', async () => {
    const dumpPort = await freePort();
    const server = await start({ MODULES_DUMP_PORT: String(dumpPort), METRICS_PORT: String(await freePort()) });
    const ready = await call(server.baseUrl, { method: 'GET', path: `/health/ready`, timeoutMs: TIMEOUT_MS });
    expect(ready.status).toBe(200);
    const loaded = (await dump<string[]>(dumpPort)).filter((path) => path.includes('/@opentelemetry/'));
    // prom-client requires the API package (for exemplars); it is the no-op API while no SDK registers itself.
    expect(loaded.filter((path) => !path.includes('/@opentelemetry/api/'))).toEqual([]);
  });

  it('loads no OpenTelemetry module at all with metrics off too', async () => {
    const dumpPort = await freePort();
    await start({ MODULES_DUMP_PORT: String(dumpPort), METRICS_PORT: '0' });
    const loaded = (await dump<string[]>(dumpPort)).filter((path) => path.includes('/@opentelemetry/'));
    expect(loaded).toEqual([]);
  });
});
