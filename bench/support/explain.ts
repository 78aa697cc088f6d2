import { DataSource } from 'typeorm';

/** EXPLAIN (ANALYZE, BUFFERS) of a statement inside a transaction that is rolled back, so it changes nothing. */
export async function explainAnalyze(db: DataSource, sql: string, params: unknown[]): Promise<string> {
  const runner = db.createQueryRunner();
  await runner.connect();
  try {
    await runner.startTransaction();
    const rows: Array<{ 'QUERY PLAN': string }> = await runner.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params);
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  } finally {
    await runner.rollbackTransaction().catch(() => undefined);
    await runner.release();
  }
}
