import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** What a running (or crashed) server wrote into its data directory's lock file, postmaster.pid. */
export interface PostmasterPid {
  pid: number;
  port: number;
  /** `starting`, `ready`, `standby` or `stopping`; empty while the server has not yet said. */
  status: string;
}

/** Reads postmaster.pid (line 1: pid, line 4: port, line 8: status); undefined when there is none. */
export async function readPostmasterPid(dataDir: string): Promise<PostmasterPid | undefined> {
  const text = await readFile(join(dataDir, 'postmaster.pid'), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  const lines = text.split('\n');
  return { pid: Number(lines[0]), port: Number(lines[3]), status: (lines[7] ?? '').trim() };
}
