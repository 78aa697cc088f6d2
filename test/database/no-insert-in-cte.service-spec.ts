import { catalogue } from '../../src/sql-catalogue/catalogue';
import { writingCtes } from '../support/routing/writes-in-ctes';

/**
 * The writes still compiled into one statement of CTEs (write-path/write-statement.ts), each form apart, until
 * * each is a short transaction of statements Citus routes whole. This list only shrinks.
 */
const ONE_STATEMENT_WRITES = new Set([
  'create_tag',
  'update_tag',
  'delete_tag',
  'write_template',
  'create_template',
  'delete_template',
  'create_webhook',
  'delete_webhook',
  'write_page',
  'create_page',
  'copy_pages',
  'delete_page',
]);
const FORMS = /_(announcing|keyed)$/;

/** Citus runs a statement whole on the workspace's shard only when no CTE of it inserts (docs/citus.md). */
describe('No INSERT inside a CTE', () => {
  const entries = catalogue().filter(({ statement }) => !ONE_STATEMENT_WRITES.has(statement.name.replace(FORMS, '')));

  it.each(entries.map((entry) => [entry.statement.name, entry]))('%s', async (_, { statement }) => {
    expect((await writingCtes(statement.text)).filter((cte) => cte.startsWith('INSERT'))).toEqual([]);
  });

  it('lists only writes that are still one statement', () => {
    const names = new Set(catalogue().map(({ statement }) => statement.name));
    expect([...ONE_STATEMENT_WRITES].filter((name) => !names.has(name))).toEqual([]);
  });
});
