import { DataSource } from 'typeorm';
import type { Statement, StatementParams } from '../../src/database/statement';

/**
 * EXPLAIN (ANALYZE, BUFFERS) of a catalogue statement inside a transaction that is rolled back, so it
 * changes nothing.
 */
export async function explainAnalyze<Params extends StatementParams, Row>(
  db: DataSource,
  statement: Statement<Params, Row>,
  params: Params,
): Promise<string> {
  const runner = db.createQueryRunner();
  await runner.connect();
  try {
    await runner.startTransaction();
    const rows = await db.query<Array<{ 'QUERY PLAN': string }>>(
      `EXPLAIN (ANALYZE, BUFFERS) ${statement.text}`,
      statement.values(params),
      runner,
    );
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  } finally {
    await runner.rollbackTransaction().catch(() => undefined);
    await runner.release();
  }
}
