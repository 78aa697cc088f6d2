import { readdirSync, readFileSync } from 'node:fs';
import { Client } from 'pg';

const TICK_MS = 10; // USER_HZ is 100 on Linux
const ATTEMPTS = 10;

/** The CPU of the cluster a run uses, while it runs on this machine. */
export interface DatabaseCpu {
  postmaster: number;
  /** CPU time (user + system, ms) the cluster has used so far; null once its postmaster is gone. */
  ms(): number | null;
}

interface PostgresStat {
  parent: number;
  /** utime + stime: the process's own CPU. */
  own: number;
  /** cutime + cstime: that of its children that ended and that it reaped. */
  reaped: number;
}

/** /proc/<pid>/stat of a postgres process, in ticks; null when there is no such process or it is not postgres. */
function postgresStat(pid: number): PostgresStat | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null; // ended, or no /proc (not Linux)
  }
  const close = stat.lastIndexOf(')');
  if (!stat.slice(stat.indexOf('(') + 1, close).startsWith('postgres')) return null;
  // Fields after the command: state is field 3, ppid 4, utime 14, stime 15, cutime 16 and cstime 17.
  const fields = stat.slice(close + 2).split(' ');
  const tick = (field: number) => Number(fields[field - 3]);
  return { parent: tick(4), own: tick(14) + tick(15), reaped: tick(16) + tick(17) };
}

/**
 * The postmaster, its live children and the children it reaped, in ticks. A child reaped while /proc
 * is read moves from its own entry into the postmaster's cutime, counted twice or not at all: then
 * read again. null when the postmaster is gone or the reads keep racing.
 */
function clusterTicks(postmaster: number): number | null {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const before = postgresStat(postmaster);
    if (!before) return null;
    let ticks = before.own + before.reaped;
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      const child = postgresStat(Number(name));
      if (child?.parent === postmaster) ticks += child.own + child.reaped;
    }
    if (postgresStat(postmaster)?.reaped === before.reaped) return ticks;
  }
  return null;
}

/**
 * The CPU meter of the cluster serving `databaseUrl`, whose postmaster is the parent of this connection's
 * backend; other clusters on the machine (a test suite's) start, work and stop on their own. null when
 * the server is not on this machine, or is in another pid namespace (a container), where the backend's
 * pid is not a postgres process here.
 */
export async function databaseCpu(databaseUrl: string): Promise<DatabaseCpu | null> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    // Read while the connection, and so its backend, is open.
    const backend = postgresStat(rows[0].pid);
    const postmaster = backend && postgresStat(backend.parent) ? backend.parent : null;
    if (postmaster === null) return null;
    return {
      postmaster,
      ms: () => {
        const ticks = clusterTicks(postmaster);
        return ticks === null ? null : ticks * TICK_MS;
      },
    };
  } finally {
    await client.end();
  }
}
