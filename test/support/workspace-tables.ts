import { Client } from 'pg';
import { testDatabaseUrl } from './test-config';

/**
 * The workspace tables of the migrated test database: every table with a team_id column, the column
 * Citus would distribute it by. Read from the catalogue, so a table a new migration adds is never missed.
 */
export async function workspaceTables(): Promise<Set<string>> {
  const client = new Client({ connectionString: testDatabaseUrl() });
  await client.connect();
  try {
    const { rows } = await client.query<{ table_name: string }>(
      `SELECT c.table_name::text AS table_name
         FROM information_schema.columns c
         JOIN information_schema.tables t USING (table_schema, table_name)
        WHERE c.table_schema = current_schema() AND c.column_name = 'team_id' AND t.table_type = 'BASE TABLE'`,
    );
    return new Set(rows.map((row) => row.table_name));
  } finally {
    await client.end();
  }
}
