import { freePort } from '../../support/free-port';
import { waitFor, withDeadline } from '../support/wait-for';
import { launch, ServerProcess } from './server-process';

/** A log line as pino writes it. */
export type LogEntry = { level: number; msg: string } & Record<string, unknown>;

/** pino's level numbers. */
export const LEVEL = { debug: 20, info: 30, warn: 40, error: 50, fatal: 60 } as const;

/** The boot's contract: the first failed database attempt said, and a permanent failure's exit, within this. */
export const BOOT_SAYS_WITHIN_MS = 5000;

export interface Boot extends ServerProcess {
  /** What it printed on each stream so far, whole. */
  stdout(): string;
  stderr(): string;
  /** The complete lines of both streams that are not JSON. */
  notJson(): string[];
  /** The JSON lines of stdout so far. */
  entries(): LogEntry[];
  /** The first line `match` takes, once printed, within BOOT_SAYS_WITHIN_MS of the start. */
  says(what: string, match: (entry: LogEntry) => boolean): Promise<LogEntry>;
  /** The exit code, once it exits within BOOT_SAYS_WITHIN_MS of the start. */
  exitsInTime(): Promise<number | null>;
}

const completeLines = (text: string) => text.split('\n').slice(0, -1);

function parsed(line: string): LogEntry | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null ? (value as LogEntry) : undefined;
  } catch {
    return undefined;
  }
}

/** The JSON lines of what a service printed. */
export const logEntries = (text: string): LogEntry[] =>
  completeLines(text)
    .map(parsed)
    .filter((entry) => entry !== undefined);

/** Where a service that printed `text` (at info, or warn when it replaced the default port) serves its metrics. */
export const metricsUrlIn = (text: string): string | undefined =>
  logEntries(text).find((entry) => entry.context === 'Metrics')?.url as string | undefined;

/**
 * Boots of the compiled service for a spec, each with `env` (on a free PORT, no metrics unless asked) and
 * `nodeArgs` before the script, to see what it says; any still running after a test is killed.
 */
export function useBoots(): (env: Record<string, string>, nodeArgs?: readonly string[]) => Promise<Boot> {
  const started: ServerProcess[] = [];
  afterEach(async () => {
    for (const server of started.splice(0)) {
      if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
      await server.exited;
    }
  });
  return async (env, nodeArgs = []) => {
    const port = await freePort();
    const startedAt = Date.now();
    const server = launch(env, port, nodeArgs);
    started.push(server);
    const printed = { stdout: '', stderr: '' };
    server.child.stdout!.on('data', (chunk: Buffer) => (printed.stdout += chunk.toString()));
    server.child.stderr!.on('data', (chunk: Buffer) => (printed.stderr += chunk.toString()));
    const entries = () => logEntries(printed.stdout);
    const leftMs = () => Math.max(0, startedAt + BOOT_SAYS_WITHIN_MS - Date.now());
    return {
      ...server,
      stdout: () => printed.stdout,
      stderr: () => printed.stderr,
      notJson: () =>
        [...completeLines(printed.stdout), ...completeLines(printed.stderr)].filter((l) => parsed(l) === undefined),
      entries,
      says: async (what, match) =>
        (await waitFor(what, entries, (all) => all.some(match), { timeoutMs: leftMs() })).find(match)!,
      exitsInTime: async () => (await withDeadline('the service to exit', leftMs(), server.exited)).code,
    };
  };
}
