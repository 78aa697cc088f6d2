import { chown, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { EmbeddedPostgresErrors } from './embedded-postgres-errors';
import { ProcessIdentity } from './os-user';

/** The file in a data directory that remembers the port its cluster listens on. */
export const PORT_FILE = 'embedded-pg-port';

/**
 * Every embedded cluster listened here before each remembered its own port. A data directory from
 * then has no port file and keeps this port, so whatever was pointed at it still finds it.
 */
export const LEGACY_PORT = 54329;

export interface ClusterPort {
  port: number;
  source: 'EMBEDDED_PG_PORT' | 'port file' | 'legacy default';
  /** The data directory's port file, whether or not it exists. */
  file: string;
}

/** The port to start a data directory's cluster on: EMBEDDED_PG_PORT, else the remembered one. */
export async function clusterPort(dataDir: string, override: number | undefined): Promise<ClusterPort> {
  const file = join(dataDir, PORT_FILE);
  if (override !== undefined) return { port: override, source: 'EMBEDDED_PG_PORT', file };
  const content = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw EmbeddedPostgresErrors.unreadablePortFile(dataDir, file, error.message);
  });
  if (content === undefined) return { port: LEGACY_PORT, source: 'legacy default', file };
  const port = Number(content.trim());
  if (!/^\d+$/.test(content.trim()) || port < 1 || port > 65535) {
    throw EmbeddedPostgresErrors.badPortFile(dataDir, file, content.trim());
  }
  return { port, source: 'port file', file };
}

/**
 * Remembers `port` in a data directory: one being initialised (see initialiseCluster for why that is atomic),
 * or one this start just created, whose first pick was taken (embedded-postgres.ts).
 */
export async function writePortFile(dataDir: string, port: number, identity: ProcessIdentity): Promise<void> {
  const file = join(dataDir, PORT_FILE);
  await writeFile(file, `${port}\n`, { mode: 0o644 });
  if (identity.uid !== undefined) await chown(file, identity.uid, identity.gid!);
}

/** A port nobody listens on at 127.0.0.1 right now, as the operating system picks it. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
