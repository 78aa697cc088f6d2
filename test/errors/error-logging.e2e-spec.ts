import { createTestApp, TestApp } from '../support/test-app';
import { expectError } from '../support/expect-error';

/** The error id in a body is the one in the request's log line; tokens and bodies never reach the log. */
describe('error logging', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp({ LOG_LEVEL: 'info' })));
  afterAll(() => t.close());

  it('puts the error id and sec in the log line of the request, and no secret or body value', async () => {
    const res = await t.http
      .patch('/v1/acme/notes/templates/x')
      .set('Authorization', 'Bearer wca_super_secret_value')
      .set('X-Request-Id', 'req-log-1')
      .send({ title: 'private body value' });
    expectError(res, 'UNAUTHENTICATED');
    const line = t.logs.find((l) => (l.req as { id?: string })?.id === 'req-log-1');
    expect(line).toMatchObject({
      error_id: res.body.error.id,
      error_sec: res.body.error.sec,
      res: { statusCode: 401 },
    });
    await t.http.get('/v1/acme/notes/templates/x?access_token=wca_in_the_query').expect(401);
    const everything = JSON.stringify(t.logs);
    expect(everything).not.toContain('wca_in_the_query');
    expect(everything).not.toContain('wca_super_secret_value');
    expect(everything).not.toContain('private body value');
  });

  it('logs failures while reading the body too', async () => {
    const res = await t.http
      .patch('/v1/acme/notes/templates/x')
      .set('Content-Type', 'application/json')
      .send(`"${'x'.repeat(1_100_000)}"`);
    expectError(res, 'PAYLOAD_TOO_LARGE');
    expect(t.logs.some((l) => l.error_id === res.body.error.id)).toBe(true);
  });
});
