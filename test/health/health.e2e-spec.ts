import { createTestApp, TestApp } from '../support/test-app';

describe('health', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  it('is live without a token', async () => {
    const res = await t.http.get('/health/live').expect(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('is ready when the database answers and every migration is applied', async () => {
    const res = await t.http.get('/health/ready').expect(200);
    expect(res.body).toEqual({ status: 'ok' });
  });
});

describe('health probes in the request log', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp({ LOG_LEVEL: 'debug' })));
  afterAll(() => t.close());

  const levelOf = (id: string) => t.logs.find((line) => (line.req as { id?: string })?.id === id)?.level;

  it('logs a probe that succeeds at debug, not info: an orchestrator probes every few seconds', async () => {
    await t.http.get('/health/ready').set('X-Request-Id', 'probe-ready').expect(200);
    await t.http.get('/health/live').set('X-Request-Id', 'probe-live').expect(200);
    await t.http.get('/openapi.json').set('X-Request-Id', 'not-a-probe').expect(200);
    expect([levelOf('probe-ready'), levelOf('probe-live'), levelOf('not-a-probe')]).toEqual([20, 20, 30]);
  });
});
