import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { testDatabaseUrl } from '../support/test-config';

const CLI = join(__dirname, '..', '..', 'dist', 'src', 'cli', 'main.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the compiled command line (`npm run cli -- ...`) on the test database. */
export function runCli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: npm test builds it first (npm run build)`);
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      {
        env: { PATH: process.env.PATH, DATABASE_URL: testDatabaseUrl(), RUN_MIGRATIONS: 'false', ...env },
        timeout: 60_000,
      },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}
