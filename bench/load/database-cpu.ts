import { readdirSync, readFileSync } from 'node:fs';

const TICK_MS = 10; // USER_HZ is 100 on Linux

/**
 * CPU time (user + system, ms) used so far by every `postgres` process on this machine, read from
 * /proc: the database's share of a run when it runs here (the embedded cluster, or a local server).
 * A backend that ended (the pool closed an idle connection) is counted in its postmaster's reaped
 * children's time, so the sum does not drop when one goes. null where there is no /proc (not Linux).
 */
export function databaseCpuMs(): number | null {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
  let ticks = 0;
  for (const pid of pids) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    const close = stat.lastIndexOf(')');
    if (!stat.slice(stat.indexOf('(') + 1, close).startsWith('postgres')) continue;
    // Fields after the command: state is field 3, utime 14, stime 15, cutime 16 and cstime 17.
    const fields = stat.slice(close + 2).split(' ');
    ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  }
  return ticks * TICK_MS;
}
