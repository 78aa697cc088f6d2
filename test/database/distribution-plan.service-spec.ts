import { Client } from 'pg';
import { REFERENCE_TABLES, WORKSPACE_TABLES } from '../../src/database/citus/distribution-plan';
import { testDatabaseUrl } from '../support/test-config';
import { workspaceTables } from '../support/workspace-tables';

/** Every table of the migrated test database, by name. */
async function migratedTables(): Promise<string[]> {
  const client = new Client({ connectionString: testDatabaseUrl() });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      `SELECT table_name::text AS name FROM information_schema.tables
        WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`,
    );
    return rows.map((row) => row.name);
  } finally {
    await client.end();
  }
}

/** So that a table a new migration adds is never left coordinator-local on Citus (docs/citus.md). */
describe('The Citus distribution plan', () => {
  it('places every table the migrations create, once', async () => {
    const planned = [...Object.keys(REFERENCE_TABLES), ...WORKSPACE_TABLES];
    expect(new Set(planned).size).toBe(planned.length);
    expect([...planned].sort()).toEqual((await migratedTables()).sort());
  });

  it('distributes only tables that have the distribution column', async () => {
    const withTeam = await workspaceTables();
    for (const table of WORKSPACE_TABLES) expect(withTeam).toContain(table);
  });
});
