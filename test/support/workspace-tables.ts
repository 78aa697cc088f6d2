import { Client } from 'pg';
import { testDatabaseUrl } from './test-config';

/** The names of the migrated test database's tables that `sql` (over information_schema) selects as `name`. */
async function tableNames(sql: string): Promise<string[]> {
  const client = new Client({ connectionString: testDatabaseUrl() });
  await client.connect();
  try {
    return (await client.query<{ name: string }>(sql)).rows.map((row) => row.name);
  } finally {
    await client.end();
  }
}

/**
 * The workspace tables of the migrated test database: every table with a team_id column, the column
 * Citus would distribute it by. Read from the catalogue, so a table a new migration adds is never missed.
 */
export async function workspaceTables(): Promise<Set<string>> {
  return new Set(
    await tableNames(
      `SELECT c.table_name::text AS name
         FROM information_schema.columns c
         JOIN information_schema.tables t USING (table_schema, table_name)
        WHERE c.table_schema = current_schema() AND c.column_name = 'team_id' AND t.table_type = 'BASE TABLE'`,
    ),
  );
}

/** Every table of the migrated test database. */
export function migratedTables(): Promise<string[]> {
  return tableNames(
    `SELECT table_name::text AS name FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`,
  );
}
