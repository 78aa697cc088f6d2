import { EmbeddedPostgresError } from '../database/embedded/embedded-postgres';
import { oneLine } from '../logging/one-line';

/** A command's result, the only thing written to stdout. */
export function printResult(result: unknown): void {
  process.stdout.write(typeof result === 'string' ? `${result}\n` : `${JSON.stringify(result, null, 2)}\n`);
}

/**
 * Wraps a command's action: a failure becomes one `error: ...` line on stderr and exit code 1.
 * The process then ends by itself once the database is closed, so stdout is never cut short.
 */
export function reportingFailure<A extends unknown[]>(
  action: (...args: A) => Promise<void>,
): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await action(...args);
    } catch (error) {
      process.stderr.write(`error: ${oneLine(error instanceof Error ? error.message : String(error))}\n`);
      if (error instanceof EmbeddedPostgresError)
        process.stderr.write(
          error
            .evidenceLines()
            .map((line) => `${line}\n`)
            .join(''),
        );
      process.exitCode = 1;
    }
  };
}
