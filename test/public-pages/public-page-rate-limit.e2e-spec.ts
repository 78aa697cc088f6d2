import request from 'supertest';
import { expectError } from '../support/expect-error';
import { seedWorkspace, Workspace } from '../support/fixtures';
import { createTestApp, TestApp } from '../support/test-app';
import { Scene } from '../support/scene';
import { sharePage } from './public-page-fixtures';

describe('GET /p/{alias_id}: the per-address limit (PUBLIC_RATE_LIMIT_PER_MINUTE)', () => {
  let t: TestApp;
  let ws: Workspace;
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_RATE_LIMIT_PER_MINUTE: '3' });
    ws = await seedWorkspace(t.app);
  });
  afterAll(() => t?.close());

  it('answers 429 with Retry-After past the limit: HTML to a browser, the error body to JSON', async () => {
    const page = await sharePage({ t, ws } as Scene, { title: 'Popular' });
    const get = () => request(t.app.getHttpServer()).get(page.path).set('Accept', 'text/html');
    for (let i = 0; i < 3; i++) await get().expect(200);
    const html = await get().expect(429);
    expect(Number(html.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(html.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(html.text).toContain('<title>This page cannot be shown now</title>');
    const json = await t.http.get(page.path).set('Accept', 'application/json');
    expectError(json, 'RATE_LIMITED');
    expect(Number(json.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('leaves requests with a token to RATE_LIMIT_PER_MINUTE (off in the tests)', async () => {
    for (let i = 0; i < 5; i++)
      await t.http.get(`/v1/${ws.teamId}/pages/999999`).set('Authorization', ws.auth.member).expect(404);
  });
});
