import { describeSkippedWhen } from './skipped-when';

/** The test database's PostgreSQL major: global setup asks it once (TEST_DATABASE_MAJOR). */
export const TEST_DATABASE_MAJOR = Number(process.env.TEST_DATABASE_MAJOR);

/** Tests of what only PostgreSQL `major` and later have: skipped on older servers, `why` in their name. */
export function describeFromMajor(major: number, name: string, why: string, fn: () => void): void {
  describeSkippedWhen(TEST_DATABASE_MAJOR < major, name, `not before PostgreSQL ${major}: ${why}`, fn);
}
