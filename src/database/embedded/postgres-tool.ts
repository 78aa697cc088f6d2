import { spawn } from 'node:child_process';
import { basename } from 'node:path';
import { ProcessIdentity } from './os-user';

/** A PostgreSQL tool (initdb, pg_ctl) that ended badly, with the last lines it wrote to stderr. */
export class PostgresToolError extends Error {
  constructor(
    readonly tool: string,
    readonly outcome: string,
    readonly stderrLines: string[],
  ) {
    super(`${tool} failed (${outcome})${stderrLines.length ? `: ${stderrLines.join(' ')}` : ''}`);
  }
}

/**
 * Runs a PostgreSQL tool to completion in a process group of its own, so that a Ctrl-C meant for us
 * does not kill initdb or pg_ctl halfway through (we stop what they started instead). execFile
 * cannot do this: it ignores `detached`.
 */
export function runPostgresTool(file: string, args: string[], identity: ProcessIdentity): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(file, args, { ...identity, detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
    child.on('error', fail);
    child.on('close', (code, signal) => {
      if (code === 0) return done();
      const lines = stderr
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean);
      fail(new PostgresToolError(basename(file), signal ?? `exit ${code}`, lines.slice(-10)));
    });
  });
}
