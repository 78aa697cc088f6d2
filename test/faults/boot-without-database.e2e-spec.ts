import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from '../../support/free-port';
import { stepsShowing } from './server-steps';

const MAIN = join(__dirname, '..', '..', 'dist', 'src', 'main.js');
/** Each step: booting far enough to try the database once, or exiting once told to. */
const STEP_MS = 20_000;

describe('Boot with a DATABASE_URL nothing answers (e2e)', () => {
  it('logs each attempt as a JSON line at once, and a SIGTERM while it retries ends it with exit 0', async () => {
    const child = spawn(process.execPath, [MAIN], {
      env: {
        PATH: process.env.PATH,
        PORT: String(await freePort()),
        DATABASE_URL: `postgres://nobody@127.0.0.1:${await freePort()}/none`, // a free port: connections are refused
        LOG_LEVEL: 'info',
        METRICS_PORT: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const step = stepsShowing(() => [{ output: () => `${stdout}${stderr}` }]);
    try {
      // Nothing is held back until boot gives up: the first failed attempt is on stdout while it retries.
      await step(
        'the first failed attempt is logged',
        STEP_MS,
        () =>
          new Promise<void>((resolve) =>
            child.stdout.on('data', (chunk: Buffer) => {
              stdout += chunk.toString();
              if (stdout.includes('Unable to connect to the database')) resolve();
            }),
          ),
      );
      child.kill('SIGTERM');
      expect(await step('the service exits after SIGTERM', STEP_MS, () => exited)).toBe(0);
      const lines = stdout.trimEnd().split('\n');
      expect(lines.filter((line) => !line.startsWith('{'))).toEqual([]);
      const messages = lines.map((line) => (JSON.parse(line) as { msg: string }).msg);
      expect(messages).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^Unable to connect to the database\. Retrying \(1\)/),
          'SIGTERM: finishing in-flight requests, then closing the database',
        ]),
      );
      expect(stderr).toBe('');
    } finally {
      // A failed step leaves it running.
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  }, 60_000);
});
