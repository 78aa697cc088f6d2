import { AddressInfo, connect } from 'node:net';
import request from 'supertest';
import { expectError } from '../support/expect-error';
import { importDocument } from '../support/fixtures';
import { useScene } from '../support/scene';
import { seedHostileWorkspace, workspaceExport, workspaceFingerprint } from './hostile-harness';

/** Shrunk counterexamples of the hostile-input properties, kept as plain tests with their literal input. */
describe('hostile input regressions', () => {
  const s = useScene();
  beforeAll(() => seedHostileWorkspace(s.t.app, s.ws));
  const patchPage = (id: string, body: string | Buffer) =>
    s.t.http
      .patch(`/v1/${s.ws.teamId}/pages/${id}`)
      .set('Authorization', s.ws.auth.member)
      .set('Content-Type', 'application/json')
      .serialize((bytes: unknown) => bytes as string)
      .send(body);

  it(
    'refuses a robots directive listed twice, ' + 'which would leave a workspace whose export cannot be imported',
    async () => {
      const before = await workspaceExport(s.t.app, s.ws.teamId);
      expectError(
        await patchPage('1', '{"public_settings":{"robots":["all","all"]}}'),
        'VALIDATION_FAILED',
        /^public_settings\.robots .*twice/,
      );
      expect(await workspaceExport(s.t.app, s.ws.teamId)).toEqual(before);
      await importDocument(s.t.app, before as object);
    },
  );

  it(
    'takes parent_page_id "0002" as page 2: ' + 'naming the parent page 4 has changes nothing, not even time_updated',
    async () => {
      const before = await workspaceFingerprint(s.t.app, s.ws.teamId);
      expect((await patchPage('4', '{"parent_page_id":"0002"}')).status).toBe(200);
      expect(await workspaceFingerprint(s.t.app, s.ws.teamId)).toEqual(before);
    },
  );

  it('imports page ids and references spelled with leading zeros as the pages they name', async () => {
    const before = (await workspaceExport(s.t.app, s.ws.teamId)) as {
      pages: Array<{ id: string; parent_page_id: string }>;
    };
    const padded = before.pages.map((page) => ({
      ...page,
      id: `00${page.id}`,
      parent_page_id: page.parent_page_id && `0${page.parent_page_id}`,
    }));
    await importDocument(s.t.app, { ...before, pages: padded });
    expect(await workspaceExport(s.t.app, s.ws.teamId)).toEqual(before);
  });

  it.each(['https://ex.com/😀', 'https://münchen.de/', 'https://ex.com/{x}', 'https://ex.com/%zz', 'HTTP://b##:'])(
    'refuses public_settings.url %s, which isURL takes but no response could carry as a format: uri',
    async (url) => {
      const before = await workspaceExport(s.t.app, s.ws.teamId);
      expectError(
        await patchPage('1', JSON.stringify({ public_settings: { url } })),
        'VALIDATION_FAILED',
        /^public_settings\.url must be an absolute http\(s\) URL/,
      );
      expect(await workspaceExport(s.t.app, s.ws.teamId)).toEqual(before);
    },
  );

  it('takes a URL with its non-ASCII characters percent-encoded', async () => {
    const res = await patchPage(
      '1',
      JSON.stringify({ public_settings: { url: 'https://ex.com/%F0%9F%98%80?q=a%20b#top' } }),
    );
    expect(res.status).toBe(200);
    expect(res.body.page.public_settings.url).toBe('https://ex.com/%F0%9F%98%80?q=a%20b#top');
  });

  it.each([
    ['Latin-1 text', Buffer.from('{"title":"Caf\u00e9"}', 'latin1')],
    ['a surrogate encoded as UTF-8 bytes (CESU-8)', Buffer.from('{"title":"\xed\xa0\x80"}', 'latin1')],
    ['a truncated UTF-8 sequence', Buffer.from('{"title":"\xe2\x82"}', 'latin1')],
  ])('refuses a body of %s with 400 MALFORMED_JSON instead of storing U+FFFD', async (_, bytes) => {
    const before = await workspaceExport(s.t.app, s.ws.teamId);
    expectError(await patchPage('2', bytes), 'MALFORMED_JSON', /not valid UTF-8/);
    expect(await workspaceExport(s.t.app, s.ws.teamId)).toEqual(before);
  });
});

/** Found by the hostile-input properties: requests Express or Node itself answered, not the app. */
describe('hostile input: what the HTTP layer answers', () => {
  const s = useScene();
  let port: number;
  beforeAll(async () => {
    await seedHostileWorkspace(s.t.app, s.ws);
    const server = s.t.app.getHttpServer();
    if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  /** Sends raw bytes and returns the raw response (the connection is closed by the server or after 2 s). */
  const raw = (text: string) =>
    new Promise<string>((resolve) => {
      let out = '';
      const socket = connect(port, '127.0.0.1', () => socket.write(text));
      socket.on('data', (chunk) => (out += chunk.toString('latin1')));
      const timer = setTimeout(() => socket.destroy(), 2000);
      socket.on('close', () => {
        clearTimeout(timer);
        resolve(out);
      });
      socket.on('error', () => socket.destroy());
    });
  const errorBodyOf = (response: string) =>
    JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4).replace(/^[0-9a-f]+\r\n/, '')).error;

  it(
    'reads a contract error body through the raw client ' + '(so the failures below fail for their own reason)',
    async () => {
      const response = await raw(`GET /v1/${s.ws.teamId}/pages/1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      expect(response).toMatch(/^HTTP\/1\.1 401 /);
      expect(errorBodyOf(response)).toEqual(expect.objectContaining({ code: 401, sec: 'SEC:000-00010' }));
    },
  );

  // Express routes ignore case and a trailing slash: these reach getPage, which the OpenAPI document does not describe.
  it.each(['/V1/{team}/pages/1', '/v1/{team}/PAGES/1', '/v1/{team}/pages/1/'])(
    'answers GET %s with 404 ROUTE_NOT_FOUND',
    async (path) => {
      const res = await request(s.t.app.getHttpServer())
        .get(path.replace('{team}', s.ws.teamId))
        .set('Authorization', s.ws.auth.member);
      expectError(res, 'ROUTE_NOT_FOUND');
    },
  );

  // Node's HTTP parser answers these itself, with an empty body: the contract's error body is missing.
  it.each([
    [
      'a header section over 16 KiB',
      () => `GET /v1/${s.ws.teamId}/pages/1 HTTP/1.1\r\nHost: x\r\nX-Long: ${'x'.repeat(20000)}\r\n\r\n`,
    ],
    ['a path over 16 KiB', () => `GET /v1/${s.ws.teamId}/pages/${'1'.repeat(20000)} HTTP/1.1\r\nHost: x\r\n\r\n`],
    [
      'a chunked body with a bad chunk size',
      () =>
        `PATCH /v1/${s.ws.teamId}/pages/1 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
        'Transfer-Encoding: chunked\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n',
    ],
    [
      'two different Content-Lengths',
      () =>
        `PATCH /v1/${s.ws.teamId}/pages/1 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
        'Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}',
    ],
    [
      'an Expect header other than 100-continue',
      () =>
        `PATCH /v1/${s.ws.teamId}/pages/1 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
        'Expect: bogus\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}',
    ],
  ])('answers %s with the contract error body', async (_, text) => {
    const response = await raw(text());
    const status = Number(response.split(' ')[1]);
    expect(status).toBeGreaterThanOrEqual(400);
    expect(errorBodyOf(response)).toEqual(
      expect.objectContaining({ code: status, sec: expect.stringMatching(/^SEC:\d{3}-\d{5}$/) }),
    );
  });
});
