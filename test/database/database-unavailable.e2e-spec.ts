import { startThrowawayPostgres, ThrowawayPostgres } from '../../src/database/embedded/throwaway-postgres';
import { createTestApp, TestApp } from '../support/test-app';
import { expectError } from '../support/expect-error';

/** The app on a database of its own, which the test then stops. */
describe('when the database stops', () => {
  let postgres: ThrowawayPostgres;
  let t: TestApp;

  beforeAll(async () => {
    postgres = await startThrowawayPostgres();
    t = await createTestApp({ DATABASE_URL: postgres.url, RUN_MIGRATIONS: 'true', DB_CONNECT_TIMEOUT_MS: '2000' });
    await t.http.get('/health/ready').expect(200);
    await postgres.stop();
  }, 60_000);

  afterAll(async () => {
    await t.close();
    await postgres.destroy();
  });

  it('answers an authenticated route with 503 and Retry-After, promptly', async () => {
    const started = Date.now();
    const res = await t.http.get('/v1/acme/notes/templates/x').set('Authorization', 'Bearer wca_anything');
    expectError(res, 'DATABASE_UNAVAILABLE', /unavailable/);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('reports not ready with 503 and the failing check', async () => {
    const res = await t.http.get('/health/ready');
    expectError(res, 'NOT_READY', /database/);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('stays live', async () => {
    await t.http.get('/health/live').expect(200);
  });
});
