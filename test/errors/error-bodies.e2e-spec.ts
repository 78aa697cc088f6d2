import { createTestApp, TestApp } from '../support/test-app';
import { expectError } from '../support/expect-error';

/** Failures that happen before any workspace is looked at: every one has the contract's error body. */
describe('error bodies outside the operations', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  it('answers an unknown route with 404 ROUTE_NOT_FOUND naming it', async () => {
    const res = await t.http.get('/v1/acme/nothing-here');
    expectError(res, 'ROUTE_NOT_FOUND', 'GET /v1/acme/nothing-here');
  });

  it('answers malformed JSON with 400 MALFORMED_JSON', async () => {
    const res = await t.http.patch('/v1/acme/notes/templates/x').set('Content-Type', 'application/json').send('{"title": ');
    expectError(res, 'MALFORMED_JSON', /not valid JSON/);
  });

  it('answers a body over 1 MiB with 413', async () => {
    const res = await t.http
      .patch('/v1/acme/notes/templates/x')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ context: 'x'.repeat(1024 * 1024 + 10) }));
    expectError(res, 'PAYLOAD_TOO_LARGE', /1 MiB/);
  });

  it('answers a non-JSON body with 415 naming the content type', async () => {
    const res = await t.http.patch('/v1/acme/notes/templates/x').set('Content-Type', 'text/plain').send('title=x');
    expectError(res, 'UNSUPPORTED_MEDIA_TYPE', 'text/plain');
  });

  it('answers a request without a token with 401 and WWW-Authenticate', async () => {
    const res = await t.http.get('/v1/acme/notes/templates/x');
    expectError(res, 'UNAUTHENTICATED', /bearer token is required/);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
  });

  it.each([
    ['an unknown token', 'Bearer wca_unknown'],
    ['a malformed header', 'Bearer'],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
  ])('answers %s with 401', async (_, header) => {
    const res = await t.http.get('/v1/acme/notes/templates/x').set('Authorization', header);
    expectError(res, 'UNAUTHENTICATED');
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
  });

  it('echoes a well-formed X-Request-Id and makes one up otherwise', async () => {
    const given = await t.http.get('/health/live').set('X-Request-Id', 'abc-123');
    expect(given.headers['x-request-id']).toBe('abc-123');
    const made = await t.http.get('/health/live').set('X-Request-Id', 'bad id with spaces');
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('does not announce the framework', async () => {
    const res = await t.http.get('/health/live');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });
});

describe('body checks on routes that take no body', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  it('applies 415 and malformed JSON to a GET with a body too, as documented', async () => {
    expectError(await t.http.get('/health/live').set('Content-Type', 'text/plain').send('x'), 'UNSUPPORTED_MEDIA_TYPE');
    expectError(await t.http.get('/health/live').set('Content-Type', 'application/json').send('{x'), 'MALFORMED_JSON');
  });
});
