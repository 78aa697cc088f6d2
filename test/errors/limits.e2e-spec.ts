import { Controller, Get } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '../../src/auth/public.decorator';
import { createTestApp, TestApp } from '../support/test-app';
import { expectError } from '../support/expect-error';
import { seedWorkspace, Workspace } from '../support/fixtures';
import { seedTemplate } from '../notes/note-template-fixtures';

/** Lets the slow handler finish once the tests are done: until then it outlasts any deadline. */
let releaseSlow: () => void = () => undefined;
const slowReleased = new Promise<void>((resolve) => (releaseSlow = resolve));

@ApiExcludeController()
@Controller('test-only')
class SlowController {
  @Public()
  @Get('slow')
  async slow(): Promise<{ done: boolean }> {
    await slowReleased;
    return { done: true };
  }
}

/** Ten times the 1 s deadline: only a deadline that never fires misses it, a loaded machine does not. */
const CLIENT_TIMEOUT_MS = 10_000;

describe('rate limit, deadline, security headers and CORS', () => {
  let t: TestApp;
  let ws: Workspace;
  let url: string;
  beforeAll(async () => {
    t = await createTestApp(
      { RATE_LIMIT_PER_MINUTE: '5', REQUEST_TIMEOUT_MS: '1000', CORS_ORIGINS: 'https://app.example.com' },
      [SlowController],
    );
    ws = await seedWorkspace(t.app);
    url = `/v1/${ws.teamId}/notes/templates/${await seedTemplate(t.app, ws)}`;
  });
  afterAll(async () => {
    releaseSlow();
    await t.close();
  });

  it('answers the request past the per-token limit with 429 and Retry-After, counting each token apart', async () => {
    for (let n = 0; n < 5; n++) await t.http.get(url).set('Authorization', ws.auth.member).expect(200);
    const limited = await t.http.get(url).set('Authorization', ws.auth.member);
    expectError(limited, 'RATE_LIMITED', /Too many requests/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    await t.http.get(url).set('Authorization', ws.auth.oauth).expect(200); // the same user's other token
    for (let n = 0; n < 10; n++) await t.http.get('/health/live').expect(200);
  });

  it('answers a request that runs past the deadline with 503 and Retry-After', async () => {
    // The handler never finishes on its own: any answer is the deadline's.
    const res = await t.http.get('/test-only/slow').timeout(CLIENT_TIMEOUT_MS);
    expectError(res, 'REQUEST_TIMEOUT', /did not finish within 1 s/);
    expect(res.headers['retry-after']).toBeDefined();
  });

  it('sends security headers and CORS only for the configured origin', async () => {
    const res = await t.http.get('/health/live').set('Origin', 'https://app.example.com');
    expect(res.headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'access-control-allow-origin': 'https://app.example.com',
    });
    expect(res.headers['x-powered-by']).toBeUndefined();
    const stranger = await t.http.get('/health/live').set('Origin', 'https://evil.example.com');
    expect(stranger.headers['access-control-allow-origin']).toBeUndefined();
  });
});
