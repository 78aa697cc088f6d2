import { createTestApp, TestApp } from '../support/test-app';
import { expectError } from '../support/expect-error';
import { useScene } from '../support/scene';

/** Failures that happen before any workspace is looked at: every one has the contract's error body. */
describe('error bodies outside the operations', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  it('answers an unknown route with 404 ROUTE_NOT_FOUND naming it', async () => {
    const res = await t.http.get('/v1/acme/nothing-here');
    expectError(res, 'ROUTE_NOT_FOUND', 'GET /v1/acme/nothing-here');
  });

  it('answers a body over 1 MiB with 413', async () => {
    const res = await t.http
      .patch('/v1/acme/notes/templates/x')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ context: 'x'.repeat(1024 * 1024 + 10) }));
    expectError(res, 'PAYLOAD_TOO_LARGE', /1 MiB/);
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

describe('the body, checked after the caller', () => {
  const s = useScene();
  const patch = (auth?: string) => {
    const request = s.t.http.patch(`/v1/${s.ws.teamId}/notes/templates/any`);
    return auth ? request.set('Authorization', auth) : request;
  };

  it('refuses the caller before looking at the body', async () => {
    expectError(await patch().set('Content-Type', 'application/json').send('{"title": '), 'UNAUTHENTICATED');
    expectError(await patch(s.ws.auth.viewer).set('Content-Type', 'text/plain').send('x'), 'ACCESS_DENIED');
    expectError(await patch(s.other.auth.owner).set('Content-Type', 'application/json').send('{oops'), 'ACCESS_DENIED');
  });

  it('answers malformed JSON with 400 MALFORMED_JSON', async () => {
    expectError(
      await patch(s.ws.auth.member).set('Content-Type', 'application/json').send('{"title": '),
      'MALFORMED_JSON',
      /not valid JSON/,
    );
    expectError(
      await patch(s.ws.auth.member).set('Content-Type', 'application/json').send('null'),
      'MALFORMED_JSON',
      /JSON object/,
    );
  });

  it('answers a non-JSON body or charset with 415 naming it', async () => {
    expectError(
      await patch(s.ws.auth.member).set('Content-Type', 'text/plain').send('title=x'),
      'UNSUPPORTED_MEDIA_TYPE',
      'text/plain',
    );
    expectError(
      await patch(s.ws.auth.member).set('Content-Type', 'application/json; charset=latin1').send('{}'),
      'UNSUPPORTED_MEDIA_TYPE',
      /latin1/,
    );
  });

  it('accepts application/*+json and an explicit UTF-8 charset', async () => {
    expectError(
      await patch(s.ws.auth.member).set('Content-Type', 'application/merge-patch+json').send('{}'),
      'NOTE_TEMPLATE_NOT_FOUND',
    );
    expectError(
      await patch(s.ws.auth.member).set('Content-Type', 'application/json; charset=UTF-8').send('{}'),
      'NOTE_TEMPLATE_NOT_FOUND',
    );
  });

  it('applies 415 and malformed JSON to a GET with a body too, as documented', async () => {
    expectError(
      await s.t.http.get('/health/live').set('Content-Type', 'text/plain').send('x'),
      'UNSUPPORTED_MEDIA_TYPE',
    );
    expectError(
      await s.t.http.get('/health/live').set('Content-Type', 'application/json').send('{x'),
      'MALFORMED_JSON',
    );
  });

  it('answers a corrupt compressed body and an unknown encoding without a 500', async () => {
    expectError(
      await patch(s.ws.auth.member)
        .set('Content-Type', 'application/json')
        .set('Content-Encoding', 'gzip')
        .send('not gzip'),
      'MALFORMED_JSON',
    );
    expectError(
      await patch(s.ws.auth.member)
        .set('Content-Type', 'application/json')
        .set('Content-Encoding', 'compress')
        .send('{}'),
      'UNSUPPORTED_MEDIA_TYPE',
      /compress/,
    );
  });

  it('answers a path that is not validly percent-encoded with 400', async () => {
    expectError(
      await s.t.http.get(`/v1/${s.ws.teamId}/cards/%ZZ`).set('Authorization', s.ws.auth.member),
      'INVALID_PATH_PARAMETER',
      /percent/,
    );
  });

  it.each([
    ['a __proto__ key', '{"__proto__": {"x": 1}}', 'UNKNOWN_FIELD', /__proto__/],
    ['a constructor key', '{"constructor": 1}', 'UNKNOWN_FIELD', /constructor/],
    [
      'a nested toString key',
      '{"icon": {"type": "emoji", "src": "x", "toString": 1}}',
      'UNKNOWN_FIELD',
      /icon\.toString/,
    ],
    ['a NUL character', '{"title": "a\\u0000b"}', 'VALIDATION_FAILED', /^title contains a NUL/],
    ['a lone surrogate', '{"sections": [{"title": "\\ud800"}]}', 'VALIDATION_FAILED', /sections\[0\]\.title contains/],
    ['5000 levels of nesting', `${'{"x":'.repeat(5000)}1${'}'.repeat(5000)}`, 'VALIDATION_FAILED', /deeper than 32/],
  ] as const)('refuses %s with 400 before validation', async (_, body, code, message) => {
    expectError(await patch(s.ws.auth.member).set('Content-Type', 'application/json').send(body), code, message);
  });
});
