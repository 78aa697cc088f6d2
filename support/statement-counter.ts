import pg from 'pg';

/** What went to PostgreSQL during one counted call: one entry per round trip (`Client.query`). */
export interface StatementCount {
  count: number;
  /** Each statement's text, whitespace collapsed, cut at 100 characters. */
  statements: string[];
}

/**
 * Counts the queries every pg client of this process sends while `run` is in progress, by wrapping
 * `pg.Client.prototype.query` (TypeORM's pool is made of these clients, and the app runs in-process).
 * Meant for one sequential request at a time: anything else querying meanwhile is counted too.
 */
export async function countStatements(run: () => Promise<void>): Promise<StatementCount> {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  const statements: string[] = [];
  proto.query = function (this: unknown, ...args: unknown[]) {
    const first = args[0] as string | { text?: string } | undefined;
    const text = typeof first === 'string' ? first : (first?.text ?? '');
    statements.push(text.replace(/\s+/g, ' ').trim().slice(0, 100));
    return original.apply(this, args);
  };
  try {
    await run();
  } finally {
    proto.query = original;
  }
  return { count: statements.length, statements };
}
