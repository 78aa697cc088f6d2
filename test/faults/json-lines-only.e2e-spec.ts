import { join } from 'node:path';
import { testDatabaseUrl } from '../support/test-config';
import { LEVEL, useBoots } from './boot-process';
import { stepsShowing } from './server-steps';

const PRELOAD = join(__dirname, 'warn-then-throw.js');
/** Exiting after the uncaught error, on a loaded machine: seconds, not this. */
const EXIT_STEP_MS = 20_000;

describe("Node's own output (e2e)", () => {
  const boot = useBoots();

  it('is JSON lines too: a warning at warn, an uncaught error at fatal, which still ends it with 1', async () => {
    const service = await boot({ DATABASE_URL: testDatabaseUrl() }, ['-r', PRELOAD]);
    const step = stepsShowing(() => [service]);
    expect((await step('the service exits', EXIT_STEP_MS, () => service.exited)).code).toBe(1);
    expect(service.entries()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ level: LEVEL.warn, context: 'Node', msg: 'warn-then-throw: a warning' }),
        expect.objectContaining({
          level: LEVEL.fatal,
          context: 'Node',
          msg: 'warn-then-throw: an uncaught error',
          err: expect.objectContaining({ stack: expect.stringContaining('warn-then-throw.js') }),
        }),
      ]),
    );
    expect(service.notJson()).toEqual([]);
    expect(service.stderr()).toBe('');
  });
});
