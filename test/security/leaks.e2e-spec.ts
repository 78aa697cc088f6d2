import { Body, Controller, Post } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { createHash, randomBytes } from 'node:crypto';
import type { Response, Test } from 'supertest';
import { DataSource } from 'typeorm';
import { Public } from '../../src/auth/public.decorator';
import { TokensService } from '../../src/auth/tokens.service';
import { ErrorCode } from '../../src/errors/catalogue';
import { seedCardScene } from '../cards/card-fixtures';
import { seedTemplate } from '../notes/note-template-fixtures';
import { seedPages } from '../pages/page-fixtures';
import { expectError } from '../support/expect-error';
import { seedWorkspace, Workspace } from '../support/fixtures';
import { createTestApp, TestApp } from '../support/test-app';

/** Every body value sent in this file contains this, so one grep finds any of them. */
const MARK = 'zqxLEAKMARK';
/** What is searched for: a few characters of the mark, so that an excerpt of a value is caught too. */
const MARK_PREFIX = MARK.slice(0, 4);
let marks = 0;
const mark = () => `${MARK}${++marks}qz`;

/** Two bugs a handler could have: an exception of its own, and a query that fails on a request value. */
@ApiExcludeController()
@Controller('test-only')
class FailingController {
  constructor(private readonly db: DataSource) {}

  @Public()
  @Post('bug')
  bug(): never {
    throw new TypeError('Cannot read properties of undefined (reading "title")');
  }

  @Public()
  @Post('query-bug')
  async queryBug(@Body() body: { value?: unknown }): Promise<never> {
    await this.db.query('SELECT $1::int AS n', [body.value]);
    throw new Error('unreachable: the query fails first');
  }
}

const SQL = [/SELECT/, /INSERT/, /UPDATE /, /DELETE /, /\bFROM /, /\bWHERE /, /\$1/];
const STACK = '    at ';

/**
 * A run of requests with failures of every kind (401, 403, 404, 400, 413, 415, malformed JSON, 500)
 * and some successes, every body value marked; then every captured log line and every error body
 * is searched for the marks, the token secrets (and their hashes), SQL text and stack traces.
 */
describe('nothing leaks into logs or error bodies', () => {
  let t: TestApp;
  let ws: Workspace;
  let other: Workspace;
  let pageId: string;
  let cardId: string;
  let usableTag: string;
  let templateId: string;
  let secrets: string[];
  let expired: string;
  let revoked: string;
  const unknown = `wca_${randomBytes(32).toString('base64url')}`;
  const responses: Array<{ name: string; res: Response }> = [];

  beforeAll(async () => {
    t = await createTestApp({ LOG_LEVEL: 'info' }, [FailingController]);
    ws = await seedWorkspace(t.app);
    other = await seedWorkspace(t.app);
    [pageId] = await seedPages(t.app, ws, [{ title: 'Leak test page' }]);
    ({
      cardId,
      usable: [usableTag],
    } = await seedCardScene(t.app, ws, { guestIsMember: false }));
    templateId = await seedTemplate(t.app, ws);
    const tokens = t.app.get(TokensService);
    expired = (
      await tokens.create({ teamId: ws.teamId, userId: ws.users.owner, expiresAt: new Date(Date.now() - 1000) })
    ).token;
    const issued = await tokens.create({ teamId: ws.teamId, userId: ws.users.owner });
    await tokens.revoke(issued.id, ws.teamId);
    revoked = issued.token;
    secrets = [...Object.values(ws.auth), ...Object.values(other.auth)]
      .map((a) => a.replace(/^Bearer /, ''))
      .concat(expired, revoked, unknown);
  });
  afterAll(() => t.close());

  const page = (auth?: string, id = pageId) => withAuth(t.http.patch(`/v1/${ws.teamId}/pages/${id}`), auth);
  const template = (auth?: string, id = templateId) =>
    withAuth(t.http.patch(`/v1/${ws.teamId}/notes/templates/${id}`), auth);
  const tags = (auth?: string, id = cardId) => withAuth(t.http.post(`/v1/${ws.teamId}/cards/${id}/tags`), auth);
  const raw = (request: Test, body: string, type = 'application/json') => request.set('Content-Type', type).send(body);

  /** Name, request, expected outcome: a catalogue error or a success status. */
  const RUN: Array<[string, () => Test, ErrorCode | 200 | 204]> = [
    // 401
    ['no token', () => page().send({ title: mark() }), 'UNAUTHENTICATED'],
    ['unknown token', () => page(`Bearer ${unknown}`).send({ title: mark() }), 'UNAUTHENTICATED'],
    ['expired token', () => template(`Bearer ${expired}`).send({ context: mark() }), 'UNAUTHENTICATED'],
    ['revoked token', () => tags(`Bearer ${revoked}`).send({ ids: [mark()] }), 'UNAUTHENTICATED'],
    [
      'a valid secret under another scheme',
      () => page(`Token ${secretOf(ws.auth.owner)}`).send({ title: mark() }),
      'UNAUTHENTICATED',
    ],
    [
      'a valid secret twice',
      () => page(`${ws.auth.owner} ${secretOf(ws.auth.owner)}`).send({ title: mark() }),
      'UNAUTHENTICATED',
    ],
    [
      'a valid secret in the query string',
      () => t.http.get(`/v1/${ws.teamId}/pages/${pageId}?access_token=${secretOf(ws.auth.member)}`),
      'UNAUTHENTICATED',
    ],
    [
      'a valid secret in the body',
      () => page().send({ access_token: secretOf(ws.auth.member), title: mark() }),
      'UNAUTHENTICATED',
    ],
    // 403
    ['a viewer writing', () => page(ws.auth.viewer).send({ title: mark() }), 'ACCESS_DENIED'],
    ['a token of another workspace', () => page(other.auth.owner).send({ title: mark() }), 'ACCESS_DENIED'],
    ['a guest on a page that does not list them', () => page(ws.auth.guest).send({ title: mark() }), 'ACCESS_DENIED'],
    ['a guest on a card that does not list them', () => tags(ws.auth.guest).send({ id: usableTag }), 'ACCESS_DENIED'],
    [
      "someone else's template",
      () => template(ws.auth.owner).send({ title: mark(), context: mark() }),
      'ACCESS_DENIED',
    ],
    // 404
    ['an unknown page', () => page(ws.auth.member, '987654321').send({ title: mark() }), 'PAGE_NOT_FOUND'],
    [
      'an unknown template',
      () => template(ws.auth.member, 'tpl-none').send({ context: mark() }),
      'NOTE_TEMPLATE_NOT_FOUND',
    ],
    ['an unknown card', () => tags(ws.auth.member, '987654321').send({ id: usableTag }), 'CARD_NOT_FOUND'],
    ['an unknown tag', () => tags(ws.auth.member).send({ ids: [usableTag, '987654321'] }), 'TAG_NOT_FOUND'],
    [
      'an unknown route',
      () => withAuth(t.http.post(`/v1/${ws.teamId}/nothing`), ws.auth.member).send({ title: mark() }),
      'ROUTE_NOT_FOUND',
    ],
    // 400: validation
    [
      'a title too long',
      () => page(ws.auth.member).send({ title: `${mark()}${'x'.repeat(300)}` }),
      'VALIDATION_FAILED',
    ],
    ['an unknown font', () => page(ws.auth.member).send({ font: mark() }), 'VALIDATION_FAILED'],
    [
      'a bad public URL',
      () => page(ws.auth.member).send({ is_public: true, public_settings: { url: mark() } }),
      'VALIDATION_FAILED',
    ],
    [
      'a bad robots entry',
      () => page(ws.auth.member).send({ public_settings: { robots: ['index', mark()] } }),
      'VALIDATION_FAILED',
    ],
    ['a bad icon type', () => page(ws.auth.member).send({ icon: { type: mark(), src: mark() } }), 'VALIDATION_FAILED'],
    ['a string for a boolean', () => page(ws.auth.member).send({ hide_subpages: mark() }), 'VALIDATION_FAILED'],
    ['a string for a position', () => page(ws.auth.member).send({ position: mark() }), 'VALIDATION_FAILED'],
    ['a bad parent id', () => page(ws.auth.member).send({ parent_page_id: mark() }), 'VALIDATION_FAILED'],
    ['an unknown field', () => page(ws.auth.member).send({ title: mark(), extra: mark() }), 'UNKNOWN_FIELD'],
    [
      'an unknown section field',
      () => template(ws.auth.member).send({ sections: [{ title: mark(), bogus: mark() }] }),
      'UNKNOWN_FIELD',
    ],
    [
      'a context too long',
      () => template(ws.auth.member).send({ context: mark().padEnd(102_401, 'y') }),
      'VALIDATION_FAILED',
    ],
    ['a non-string tag id', () => tags(ws.auth.member).send({ ids: [mark()] }), 'VALIDATION_FAILED'],
    ['a non-numeric tag id', () => tags(ws.auth.member).send({ id: mark() }), 'VALIDATION_FAILED'],
    ['a prototype key', () => raw(page(ws.auth.member), `{"__proto__": {"title": "${mark()}"}}`), 'UNKNOWN_FIELD'],
    ['a NUL character', () => page(ws.auth.member).send({ title: `${mark()}\u0000` }), 'VALIDATION_FAILED'],
    ['too deep', () => page(ws.auth.member).send({ icon: nest(40, mark()) }), 'VALIDATION_FAILED'],
    [
      'a bad team_id',
      () => withAuth(t.http.patch(`/v1/bad-team!/pages/${pageId}`), ws.auth.member).send({ title: mark() }),
      'INVALID_TEAM_ID',
    ],
    ['a bad page_id', () => page(ws.auth.member, 'abc').send({ title: mark() }), 'INVALID_PATH_PARAMETER'],
    // 400: malformed JSON, every kind of message JSON.parse has
    ['a bare word', () => raw(page(ws.auth.member), `{"title": ${mark()}}`), 'MALFORMED_JSON'],
    ['a bare word at the start', () => raw(page(ws.auth.member), `${mark()}`), 'MALFORMED_JSON'],
    [
      'a bare word at the end',
      () => raw(page(ws.auth.member), `{"title": "${'x'.repeat(40)}", "font": ${mark()}}`),
      'MALFORMED_JSON',
    ],
    ['a single-quoted string', () => raw(page(ws.auth.member), `{"title": '${mark()}'}`), 'MALFORMED_JSON'],
    ['an unterminated string', () => raw(page(ws.auth.member), `{"title": "${mark()}`), 'MALFORMED_JSON'],
    ['a trailing comma', () => raw(page(ws.auth.member), `{"title": "${mark()}",}`), 'MALFORMED_JSON'],
    ['junk after the value', () => raw(page(ws.auth.member), `{"title": "x"} ${mark()}`), 'MALFORMED_JSON'],
    ['a bad escape', () => raw(page(ws.auth.member), `{"title": "${mark()}\\q"}`), 'MALFORMED_JSON'],
    ['an array', () => raw(page(ws.auth.member), `["${mark()}"]`), 'MALFORMED_JSON'],
    [
      'a corrupt gzip body',
      () => raw(page(ws.auth.member), `{"title": "${mark()}"}`).set('Content-Encoding', 'gzip'),
      'MALFORMED_JSON',
    ],
    // 413, 415
    [
      'a body over 1 MiB',
      () => page(ws.auth.member).send({ title: mark(), content: mark().repeat(80_000) }),
      'PAYLOAD_TOO_LARGE',
    ],
    ['a text body', () => raw(page(ws.auth.member), mark(), 'text/plain'), 'UNSUPPORTED_MEDIA_TYPE'],
    [
      'an XML body',
      () => raw(page(ws.auth.member), `<title>${mark()}</title>`, 'application/xml'),
      'UNSUPPORTED_MEDIA_TYPE',
    ],
    [
      'a form body',
      () => raw(page(ws.auth.member), `title=${mark()}`, 'application/x-www-form-urlencoded'),
      'UNSUPPORTED_MEDIA_TYPE',
    ],
    [
      'an unknown encoding',
      () => raw(page(ws.auth.member), `{"title": "${mark()}"}`).set('Content-Encoding', 'zz'),
      'UNSUPPORTED_MEDIA_TYPE',
    ],
    // 500
    ['a bug in a handler', () => t.http.post('/test-only/bug').send({ value: mark() }), 'INTERNAL_ERROR'],
    [
      'a query failing on a request value',
      () => t.http.post('/test-only/query-bug').send({ value: mark() }),
      'INTERNAL_ERROR',
    ],
    // successes: their bodies carry what was written, their log lines must not
    ['a page update', () => page(ws.auth.member).send({ title: mark() }), 200],
    [
      'a template update',
      () => template(ws.auth.member).send({ context: mark(), sections: [{ title: mark(), description: mark() }] }),
      200,
    ],
    ['a tagging', () => tags(ws.auth.member).send({ id: usableTag }), 204],
  ];

  it(`runs ${RUN.length} requests, each answering as expected`, async () => {
    for (const [name, send, outcome] of RUN) {
      const res = await send();
      responses.push({ name, res });
      if (typeof outcome === 'number') expect([name, res.status]).toEqual([name, outcome]);
      else expectError(res, outcome);
    }
    // The log must hold every request, or the searches below would prove nothing.
    for (const { res } of responses.filter(({ res }) => res.status >= 400)) {
      expect(t.logs.some((line) => line.error_id === res.body.error.id)).toBe(true);
    }
    expect(t.logs.filter((line) => (line.res as { statusCode?: number })?.statusCode).length).toBeGreaterThanOrEqual(
      RUN.length,
    );
  });

  it('puts no body value in a log line', () => {
    expect(marks).toBeGreaterThan(50);
    expect(t.logs.map((line) => JSON.stringify(line)).filter((text) => text.includes(MARK_PREFIX))).toEqual([]);
  });

  it('puts no body value in an error body', () => {
    expect(errorBodies().filter(({ body }) => body.includes(MARK_PREFIX))).toEqual([]);
  });

  it('puts no token secret, nor its hash, anywhere', () => {
    const everything = [
      ...t.logs.map((line) => JSON.stringify(line)),
      ...responses.map(({ res }) => JSON.stringify({ body: res.body, headers: res.headers })),
    ];
    for (const secret of secrets) {
      const hash = createHash('sha256').update(secret).digest();
      for (const needle of [secret, hash.toString('hex'), hash.toString('base64')]) {
        expect(everything.filter((text) => text.includes(needle))).toEqual([]);
      }
    }
  });

  it('puts no SQL in a log line or an error body', () => {
    const texts = [...t.logs.map((line) => ({ name: 'log', body: JSON.stringify(line) })), ...errorBodies()];
    expect(texts.filter(({ body }) => SQL.some((sql) => sql.test(body)))).toEqual([]);
  });

  it('puts stack traces only in the log lines of an unexpected error, never in a body', () => {
    expect(errorBodies().filter(({ body }) => body.includes(STACK))).toEqual([]);
    const unexpected = responses.filter(({ res }) => res.status === 500).map(({ res }) => res.body.error.id as string);
    expect(unexpected).toHaveLength(2);
    const withStack = t.logs.filter((line) => JSON.stringify(line).includes(STACK));
    expect(withStack.filter((line) => !unexpected.includes(line.error_id as string))).toEqual([]);
    // For operators: the original error, with its stack, under the id the client was given.
    for (const id of unexpected)
      expect(withStack.some((line) => line.error_id === id && line.msg === 'unexpected error')).toBe(true);
  });

  it('keeps what an operator needs of a failed query: its type, SQLSTATE and sentence, not the value', () => {
    const failed = responses.find(({ name }) => name === 'a query failing on a request value')!.res;
    const line = t.logs.find((l) => l.error_id === failed.body.error.id && l.msg === 'unexpected error');
    expect(line?.err).toMatchObject({
      type: 'QueryFailedError',
      code: '22P02',
      message: 'invalid input syntax for type integer: "(value)"',
    });
  });

  function errorBodies(): Array<{ name: string; body: string }> {
    return responses
      .filter(({ res }) => res.status >= 400)
      .map(({ name, res }) => ({ name, body: res.text || JSON.stringify(res.body) }));
  }
});

function withAuth(request: Test, auth?: string): Test {
  return auth === undefined ? request : request.set('Authorization', auth);
}

function secretOf(auth: string): string {
  return auth.replace(/^Bearer /, '');
}

function nest(depth: number, leaf: string): object {
  let value: object = { src: leaf };
  for (let n = 0; n < depth; n++) value = { child: value };
  return value;
}
