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
