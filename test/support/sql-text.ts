/** Runs SQL text for a test's own checks: a TypeORM DataSource, or a service spec's rolled-back transaction. */
export interface SqlText {
  query<Row = Record<string, unknown>>(text: string, params?: unknown[]): Promise<Row[]>;
}
