import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import request, { Response } from 'supertest';
import { expectError } from '../support/expect-error';
import { useScene } from '../support/scene';
import { testDatabaseUrl } from '../support/test-config';
import { seedPages } from '../pages/page-fixtures';
import { SharedPage, sharePage } from './public-page-fixtures';

/** An answer with what differs per occurrence (the error id and date) blanked out. */
function sameness(res: Response) {
  const text = res.text
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'ID')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, 'DATE')
    .replace(/"date":\d+/g, '"date":0');
  // The rate limit counts down with every request of the address, and its reset with the clock.
  const {
    date,
    'x-request-id': _id,
    'content-length': _length,
    'x-ratelimit-remaining': _left,
    'x-ratelimit-reset': _reset,
    ...headers
  } = res.headers;
  return { status: res.status, headers: { ...headers, date: typeof date } as Record<string, string>, text };
}

describe('GET /p/{alias_id}: every page not there to show is the same 404', () => {
  const s = useScene();
  const cases: Record<string, string> = {};

  beforeAll(async () => {
    const patch = (id: string, body: object) =>
      s.t.http.patch(`/v1/${s.ws.teamId}/pages/${id}`).set('Authorization', s.ws.auth.member).send(body).expect(200);
    const [neverShared] = await seedPages(s.t.app, s.ws, [{ title: 'Private' }]);
    const neverSharedAlias = (
      await s.t.http.get(`/v1/${s.ws.teamId}/pages/${neverShared}`).set('Authorization', s.ws.auth.member).expect(200)
    ).body.page.alias_id as string;
    // Each was served while shared, so the 404 below is what the change did.
    const served = async (page: SharedPage) => {
      await request(s.t.app.getHttpServer()).get(page.path).expect(200);
      return page;
    };
    const unshared = await served(await sharePage(s, { title: 'Shared, then not' }));
    await patch(unshared.id, { is_public: false });
    const archived = await served(await sharePage(s, { title: 'Shared, then archived' }));
    await patch(archived.id, { archived: true });
    const deleted = await served(await sharePage(s, { title: 'Shared, then deleted' }));
    const db = new Client({ connectionString: testDatabaseUrl() });
    await db.connect();
    await db.query('DELETE FROM pages WHERE team_id = $1 AND id = $2', [s.ws.teamId, deleted.id]);
    await db.end();
    Object.assign(cases, {
      'never shared': `/p/${neverSharedAlias}`,
      'no longer shared': unshared.path,
      archived: archived.path,
      deleted: deleted.path,
      unknown: `/p/${randomUUID()}`,
      malformed: '/p/not-a-uuid',
      'malformed, SQL-ish': `/p/${encodeURIComponent("1' OR '1'='1")}`,
      'unknown, in capitals': `/p/${randomUUID().toUpperCase()}`,
    });
  });

  it('to a browser: an HTML page, identical for every case apart from the error id and date', async () => {
    const answers = await Promise.all(
      Object.values(cases).map((path) => request(s.t.app.getHttpServer()).get(path).set('Accept', 'text/html')),
    );
    const [first, ...rest] = answers.map(sameness);
    expect(first.status).toBe(404);
    expect(first.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(first.headers['content-security-policy']).toContain("script-src 'none'");
    expect(first.text).toContain('<title>Page not found</title>');
    expect(first.text).not.toMatch(/Private|Shared, then|archived|deleted/i);
    rest.forEach((answer, i) =>
      expect([Object.keys(cases)[i + 1], answer]).toEqual([Object.keys(cases)[i + 1], first]),
    );
  });

  it('to a JSON client: the error body, identical for every case apart from the error id and date', async () => {
    const answers = await Promise.all(
      Object.values(cases).map((path) => s.t.http.get(path).set('Accept', 'application/json')),
    );
    answers.forEach((res) => expectError(res, 'PUBLIC_PAGE_NOT_FOUND', 'No page is shared at this address'));
    const [first, ...rest] = answers.map(sameness);
    rest.forEach((answer, i) =>
      expect([Object.keys(cases)[i + 1], answer]).toEqual([Object.keys(cases)[i + 1], first]),
    );
  });

  it('to HEAD: 404 with no body', async () => {
    const res = await request(s.t.app.getHttpServer()).head(cases.unknown).expect(404);
    expect(res.text).toBeUndefined();
  });
});
