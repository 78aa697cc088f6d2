import { Controller, Get } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '../../src/auth/public.decorator';
import { createTestApp, TestApp } from '../support/test-app';
import { expectError } from '../support/expect-error';

@ApiExcludeController()
@Controller('test-only')
class FailingController {
  @Public()
  @Get('bug')
  bug(): never {
    throw new TypeError('Cannot read properties of undefined (reading "secret_column") in SELECT * FROM tokens');
  }
}

/** A bug answers 500 with a generic message; the details go to the log under the error id. */
describe('an unexpected error', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp({ LOG_LEVEL: 'info' }, [FailingController])));
  afterAll(() => t.close());

  it('answers 500 INTERNAL_ERROR without leaking anything, and logs the stack under the error id', async () => {
    const res = await t.http.get('/test-only/bug');
    expectError(res, 'INTERNAL_ERROR', /unexpected error/);
    expect(JSON.stringify(res.body)).not.toMatch(/secret_column|SELECT|TypeError|at /);
    const logged = t.logs.find((line) => line.error_id === res.body.error.id && line.err);
    expect(logged).toBeDefined();
    expect(JSON.stringify(logged)).toContain('secret_column');
  });
});
