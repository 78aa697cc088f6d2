import { SqlSession, statement } from '../statement';
import { CITUS_INSTALLED } from './citus-installed';

/** Whether the database is a Citus coordinator: where a statement has a form for Citus, which to run. */
export const ON_CITUS = statement<Record<never, never>, { citus: boolean }>(
  'on_citus',
  `SELECT ${CITUS_INSTALLED} AS citus`,
);

/** Asks the database once whether it is a Citus coordinator (again after a failure). */
export class CitusProbe {
  private answer: Promise<boolean> | undefined;

  constructor(private readonly sql: Pick<SqlSession, 'query'>) {}

  isCitus(): Promise<boolean> {
    this.answer ??= this.sql.query(ON_CITUS, {}).then(
      ([row]) => row.citus,
      (error: unknown) => {
        this.answer = undefined;
        throw error;
      },
    );
    return this.answer;
  }
}
