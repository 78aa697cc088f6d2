import { workspaceTables } from '../support/workspace-tables';

describe('workspaceTables: the tables of the migrated test database that have a team_id', () => {
  it('lists the tables of one workspace each, and no other', async () => {
    const tables = await workspaceTables();
    for (const table of ['pages', 'page_members', 'cards', 'tokens', 'idempotency_keys', 'webhook_streams'])
      expect(tables).toContain(table);
    for (const table of ['workspaces', 'users', 'schema_migrations']) expect(tables).not.toContain(table);
  });
});
