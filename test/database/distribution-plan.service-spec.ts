import { REFERENCE_TABLES, WORKSPACE_TABLES } from '../../src/database/citus/distribution-plan';
import { migratedTables, workspaceTables } from '../support/workspace-tables';

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
