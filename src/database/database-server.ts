import { join } from 'node:path';
import { AppConfig } from '../config/app-config';
import { RunningPostgres, startEmbeddedPostgres } from './embedded/embedded-postgres';

/**
 * The PostgreSQL the service, the CLI and the migration commands use: DATABASE_URL when set,
 * otherwise the embedded server whose data lives under DATA_DIR and survives restarts, on the port
 * that data directory remembers (EMBEDDED_PG_PORT overrides it).
 */
export async function openDatabaseServer(config: AppConfig): Promise<RunningPostgres> {
  if (config.databaseUrl) return { url: config.databaseUrl, stop: () => Promise.resolve() };
  return startEmbeddedPostgres({
    dataDir: join(config.dataDir, 'postgres'),
    port: config.embeddedPgPort,
    database: 'workspace_content',
  });
}
