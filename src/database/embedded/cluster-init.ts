import { access, chown, mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { EmbeddedPostgresError, EmbeddedPostgresErrors } from './embedded-postgres-errors';
import { freePort, writePortFile } from './embedded-port';
import { ProcessIdentity } from './os-user';
import { PostgresToolError, runPostgresTool } from './postgres-tool';

export const USER = 'postgres';
export const PASSWORD = 'postgres';

/** Whether `dataDir` holds a cluster: initdb writes PG_VERSION. */
export function isCluster(dataDir: string): Promise<boolean> {
  return access(join(dataDir, 'PG_VERSION')).then(
    () => true,
    () => false,
  );
}

/**
 * Creates the cluster unless `dataDir` holds one, remembering a free port in it; true when this call
 * created it. initdb runs in a new sibling directory that gets the port file too, and one rename puts
 * both in place: a crash leaves no cluster without its port, and of two first starts racing, one
 * rename wins and the other uses the winner's cluster.
 */
export async function initialiseCluster(dataDir: string, bin: string, identity: ProcessIdentity): Promise<boolean> {
  if (await isCluster(dataDir)) return false;
  const parent = dirname(dataDir);
  let staging: string | undefined;
  try {
    // Parents stay traversable for the postgres user; the cluster directory itself is private (mkdtemp: 0700).
    await mkdir(parent, { recursive: true, mode: 0o755 });
    staging = await mkdtemp(join(parent, `.${basename(dataDir)}-initdb-`));
    if (identity.uid !== undefined) await chown(staging, identity.uid, identity.gid!);
    await initdb(staging, bin, identity);
    await writePortFile(staging, await freePort(), identity);
    return await rename(staging, dataDir).then(
      () => true,
      async (error: NodeJS.ErrnoException) => {
        if (await isCluster(dataDir)) return false; // a concurrent first start got there first
        throw error.code === 'ENOTEMPTY' || error.code === 'EEXIST'
          ? EmbeddedPostgresErrors.notACluster(dataDir)
          : error;
      },
    );
  } catch (error) {
    throw creationFailure(dataDir, identity, error);
  } finally {
    if (staging) await rm(staging, { recursive: true, force: true });
  }
}

async function initdb(dataDir: string, bin: string, identity: ProcessIdentity): Promise<void> {
  const pwFile = join(tmpdir(), `wca-pg-password-${process.pid}-${Date.now()}`);
  await writeFile(pwFile, `${PASSWORD}\n`, { mode: 0o644 });
  try {
    await runPostgresTool(
      join(bin, 'initdb'),
      ['-D', dataDir, '-U', USER, `--pwfile=${pwFile}`, '--auth=scram-sha-256', '-E', 'UTF8', '--locale=C'],
      identity,
    );
  } finally {
    await rm(pwFile, { force: true });
  }
}

function creationFailure(dataDir: string, identity: ProcessIdentity, error: unknown): EmbeddedPostgresError {
  if (error instanceof EmbeddedPostgresError) return error;
  const writer = identity.uid === undefined ? 'this user' : 'the postgres user';
  if (error instanceof PostgresToolError) {
    const cause =
      error.stderrLines.find((line) => line.startsWith('initdb: error:')) ?? `initdb failed (${error.outcome})`;
    return EmbeddedPostgresErrors.cannotCreate(dataDir, cause, writer, {
      source: "initdb's output",
      lines: error.stderrLines,
    });
  }
  return EmbeddedPostgresErrors.cannotCreate(dataDir, error instanceof Error ? error.message : String(error), writer);
}
