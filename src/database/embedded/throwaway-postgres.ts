import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { destroyEmbeddedPostgres, startEmbeddedPostgres } from './embedded-postgres';

export interface ThrowawayPostgres {
  url: string;
  dataDir: string;
  /** Stops the server, keeping its data, so a test can see what a dead database does. */
  stop(): Promise<void>;
  /** Stops the server and deletes its data. */
  destroy(): Promise<void>;
}

/** A fresh embedded PostgreSQL in a temporary directory, on the free port it picks when initialised. */
export async function startThrowawayPostgres(database = 'wca_test'): Promise<ThrowawayPostgres> {
  const root = await mkdtemp(join(tmpdir(), 'wca-pg-'));
  await chmod(root, 0o755); // the postgres user must reach the cluster directory inside
  const dataDir = join(root, 'cluster');
  const server = await startEmbeddedPostgres({ dataDir, database });
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
