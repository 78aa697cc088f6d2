import { open, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Evidence } from './embedded-postgres-errors';

/** Where pg_ctl writes the server's log: inside the data directory, so each cluster has its own. */
export const logFile = (dataDir: string) => join(dataDir, 'postgres.log');

/** How long the log is now, so that a failed start can show only what it wrote. */
export async function logLength(dataDir: string): Promise<number> {
  return stat(logFile(dataDir)).then(
    (stats) => stats.size,
    () => 0,
  );
}

/** The last lines the server logged since `from` (bytes), at most the last 16 KiB of them. */
export async function logTail(dataDir: string, from = 0, maxLines = 12): Promise<Evidence> {
  const source = logFile(dataDir);
  const file = await open(source, 'r').catch(() => undefined);
  if (!file) return { source, lines: [] };
  try {
    const { size } = await file.stat();
    const start = Math.max(from, size - 16_384);
    const buffer = Buffer.alloc(Math.max(0, size - start));
    await file.read(buffer, 0, buffer.length, start);
    const lines = buffer
      .toString('utf8')
      .split('\n')
      .map((line) => line.trimEnd())
      .filter(Boolean);
    return { source, lines: lines.slice(-maxLines) };
  } finally {
    await file.close();
  }
}

const SEVERE = /\b(?:FATAL|PANIC):\s+(.*)$/;

/** The server's own reason for stopping: its last FATAL or PANIC message, with the DETAIL after it. */
export function fatalMessage(lines: string[]): string | undefined {
  const at = lines.map((line) => SEVERE.test(line)).lastIndexOf(true);
  if (at < 0) return undefined;
  const detail = /\bDETAIL:\s+(.*)$/.exec(lines[at + 1] ?? '')?.[1];
  const message = SEVERE.exec(lines[at])![1].trim();
  return detail ? `${message} (${detail.trim()})` : message;
}

/** Whether the log says the port was taken: PostgreSQL names the cause only in a LOG line before its FATAL. */
export function portWasTaken(lines: string[]): boolean {
  return lines.some((line) => /could not bind .*: Address already in use/.test(line));
}
