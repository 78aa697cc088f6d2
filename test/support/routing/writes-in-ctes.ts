import { loadModule, parseSync } from 'libpg-query';
import { as, visitNodes } from './sql-nodes';

/**
 * The CTEs of a statement that write (INSERT, UPDATE, DELETE), by kind and name, nested ones too. Citus
 * routes no statement with an INSERT in a CTE to one shard: it runs such a statement in steps through
 * the coordinator (docs/citus.md).
 */
export async function writingCtes(sql: string): Promise<string[]> {
  await loadModule();
  const found: string[] = [];
  visitNodes(parseSync(sql), (kind, payload) => {
    if (kind !== 'CommonTableExpr') return;
    const cte = payload as { ctename?: string; ctequery?: Parameters<typeof as>[0] };
    for (const write of ['InsertStmt', 'UpdateStmt', 'DeleteStmt'] as const)
      if (as(cte.ctequery, write)) found.push(`${write.replace('Stmt', '').toUpperCase()} ${cte.ctename}`);
  });
  return found;
}
