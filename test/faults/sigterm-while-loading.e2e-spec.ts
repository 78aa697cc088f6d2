import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from '../../support/free-port';
import { testDatabaseUrl } from '../support/test-config';
import { stepsShowing } from './server-steps';

const MAIN = join(__dirname, '..', '..', 'dist', 'src', 'main.js');
const PRELOAD = join(__dirname, 'stop-while-loading.js');
/** The service stops before it connects to anything: a few seconds on a loaded machine, not this. */
const EXIT_STEP_MS = 20_000;

describe('SIGTERM while the service is still loading its modules', () => {
  it(
    'is handled: the service stops what it started and exits 0, instead of being killed or ignoring it',
    async () => {
      const child = spawn(process.execPath, ['-r', PRELOAD, MAIN], {
        env: {
          PATH: process.env.PATH,
          PORT: String(await freePort()),
          DATABASE_URL: testDatabaseUrl(),
          LOG_LEVEL: 'info',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const step = stepsShowing(() => [{ output: () => output }]);
      try {
        const exit = await step(
          'the service exits after SIGTERM',
          EXIT_STEP_MS,
          () =>
            new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
              child.on('exit', (code, signal) => resolve({ code, signal })),
            ),
        );
        expect(output).toContain('stop-while-loading: SIGTERM listeners 1');
        expect({ ...exit, output }).toMatchObject({ code: 0, signal: null });
        expect(output).not.toContain('listening on');
      } finally {
        // A failed step leaves it running.
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }
    },
    EXIT_STEP_MS + 5000,
  );
});
