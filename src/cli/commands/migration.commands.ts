import { Command } from 'commander';
import { DataSource } from 'typeorm';
import { runPendingMigrations } from '../../database/pending-migrations';
import { withDataSource } from '../cli-session';
import { printResult, reportingFailure } from '../output';
import { named } from '../../database/named-parameters';

/** `migration:run` and `migration:revert`. */
export function registerMigrationCommands(program: Command): void {
  program
    .command('migration:run')
    .description(
      'Apply every pending migration; prints the ones applied, and on a Citus coordinator the tables placed ' +
        'and the write functions distributed by this run',
    )
    .action(
      reportingFailure(async () => {
        const { applied, citus } = await withDataSource(runPendingMigrations);
        printResult({ applied: applied.map((m) => m.name), ...(citus ? { citus } : {}) });
      }),
    );

  program
    .command('migration:revert')
    .description('Revert the last applied migration; prints its name (null when none was applied)')
    .action(
      reportingFailure(async () => {
        const reverted = await withDataSource(async (db) => {
          const last = await lastAppliedMigration(db);
          if (last) await db.undoLastMigration({ transaction: 'each' });
          return last;
        });
        printResult({ reverted });
      }),
    );
}

/** The one TypeORM reverts next: the latest by timestamp. */
async function lastAppliedMigration(db: DataSource): Promise<string | null> {
  const table = db.options.migrationsTableName ?? 'migrations';
  const exists = await db.query<Array<{ present: boolean }>>(
    ...named(`SELECT to_regclass(:table) IS NOT NULL AS present`, { table }),
  );
  if (!exists[0].present) return null;
  const rows = await db.query<Array<{ name: string }>>(
    `SELECT name FROM "${table}" ORDER BY "timestamp" DESC, id DESC LIMIT 1`,
  );
  return rows[0]?.name ?? null;
}
