import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { destroyEmbeddedPostgres, startEmbeddedPostgres } from '../src/database/embedded/embedded-postgres';
import { freePort } from './free-port';

export interface ThrowawayPostgres {
  url: string;
  dataDir: string;
  /** Stops the server, keeping its data, so a test can see what a dead database does. */
  stop(): Promise<void>;
  /** Stops the server and deletes its data. */
  destroy(): Promise<void>;
}

/** A fresh embedded PostgreSQL in a temporary directory, on a free port. */
export async function startThrowawayPostgres(database = 'wca_test'): Promise<ThrowawayPostgres> {
  const root = await mkdtemp(join(tmpdir(), 'wca-pg-'));
  await chmod(root, 0o755); // the postgres user must reach the cluster directory inside
  const dataDir = join(root, 'cluster');
  const server = await startEmbeddedPostgres({ dataDir, port: await freePort(), database });
  return {
    url: server.url,
    dataDir: root,
    stop: () => server.stop({ force: true }),
    destroy: async () => {
      await destroyEmbeddedPostgres(dataDir);
      await rm(root, { recursive: true, force: true });
    },
  };
}
