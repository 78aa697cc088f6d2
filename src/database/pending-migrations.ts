import { Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource, Migration } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { named } from './named-parameters';
import { distributeOnCitus, Placed } from './citus/distribute';

/** What a run applied, and on a Citus coordinator what it placed (null on plain PostgreSQL). */
export interface MigrationRun {
  applied: Migration[];
  citus: Placed | null;
}

/** Any fixed number: the advisory lock every process takes around migrating. */
const MIGRATION_LOCK = 730_001;

/**
 * Applies pending migrations, one process at a time: TypeORM takes no lock of its own, so replicas
 * starting together would otherwise race to apply the same migration. On a Citus coordinator, the
 * tables they created are then distributed (citus/distribute.ts).
 */
export async function runPendingMigrations(db: DataSource): Promise<MigrationRun> {
  const session = db.createQueryRunner();
  await session.connect();
  try {
    await session.query(...named('SELECT pg_advisory_lock(:lock)', { lock: MIGRATION_LOCK }));
    const applied = await db.runMigrations({ transaction: 'each' });
    return { applied, citus: await distributeOnCitus(session) };
  } finally {
    await session.query(...named('SELECT pg_advisory_unlock(:lock)', { lock: MIGRATION_LOCK })).catch(() => undefined);
    await session.release();
  }
}

/** Migrates when the app or the CLI starts, unless RUN_MIGRATIONS=false. */
@Injectable()
export class PendingMigrationsOnBoot implements OnModuleInit {
  constructor(
    private readonly db: DataSource,
    private readonly config: AppConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    if (this.config.runMigrations) await runPendingMigrations(this.db);
  }
}
