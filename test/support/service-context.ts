import { ConsoleLogger, INestApplicationContext } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Pool } from 'pg';
import { Caller } from '../../src/auth/caller';
import { AppConfigModule } from '../../src/config/app-config.module';
import { dataSourceOptions } from '../../src/database/data-source-options';
import { poolConfig } from '../../src/database/database-pools';
import { Sql } from '../../src/database/sql';
import { ImportModule } from '../../src/import/import.module';
import { PagesModule } from '../../src/pages/pages.module';
import { PagesService } from '../../src/pages/pages.service';
import { RoleName, Workspace } from './fixtures';
import { RolledBackSql } from './rolled-back-sql';
import { testConfig } from './test-config';

/** What a service spec works with: the Nest application context (no HTTP server) and the test's transaction. */
export interface Services {
  /** For the fixtures: `seedWorkspace(s.app)`, `seedPages(s.app, ...)`. */
  app: INestApplicationContext;
  pages: PagesService;
  /** The transaction the services run in during a test; `db.plain` reads what they wrote. */
  db: RolledBackSql;
}

/**
 * Builds the services before the file's tests and closes them after. Seed in `beforeAll`: the import
 * commits on a connection of its own, and inside a test it would wait on the rows the test locked.
 */
export function useServices(): Services {
  const services = {} as Services;
  let pool: Pool | undefined;
  beforeAll(async () => {
    const config = testConfig();
    pool = new Pool({ ...poolConfig(config, config.databaseUrl!), max: 1 });
    services.db = new RolledBackSql(pool);
    // The pages module and the import that seeds it, on the test database, every module's Sql replaced.
    const moduleRef = await Test.createTestingModule({
      imports: [
        AppConfigModule.forRoot(config),
        TypeOrmModule.forRoot({ ...dataSourceOptions(config.databaseUrl!, config), retryAttempts: 0 }),
        ImportModule,
        PagesModule,
      ],
    })
      .setLogger(new ConsoleLogger({ logLevels: [] }))
      .overrideProvider(Sql)
      .useValue(services.db)
      .compile();
    services.app = await moduleRef.init();
    services.pages = services.app.get(PagesService);
  });
  // Rolled back rather than on fresh ids: every test starts from the same seeded tree, seeded once per file.
  beforeEach(() => services.db.begin());
  afterEach(() => services.db.rollback());
  afterAll(async () => {
    await services.app?.close();
    await pool?.end();
  });
  return services;
}

/** The caller a request with `role`'s token in `ws` would have. */
export function callerOf(ws: Workspace, role: RoleName = 'member'): Caller {
  const userId = ws.users[role];
  return { tokenId: `tok-${role}`, teamId: ws.teamId, userId, role, actor: { user_id: userId, type: 'user' } };
}
