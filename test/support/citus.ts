import { describeSkippedWhen, itSkippedWhen } from './skipped-when';

/**
 * The suite on a Citus coordinator (docs/citus.md, "The suite on Citus"). Global setup asks the test
 * database once (TEST_DATABASE_CITUS), so that a spec knows before its tests are collected.
 */
export const TEST_ON_CITUS = process.env.TEST_DATABASE_CITUS === 'true';

/** A test of what only one PostgreSQL has: skipped on Citus, `why` in its name. */
export function itOnOneNode(name: string, why: string, fn: jest.ProvidesCallback, timeout?: number): void {
  itSkippedWhen(TEST_ON_CITUS, name, `not on Citus: ${why}`, fn, timeout);
}

/** Tests of what only one PostgreSQL has: skipped on Citus, `why` in their name. */
export function describeOnOneNode(name: string, why: string, fn: () => void): void {
  describeSkippedWhen(TEST_ON_CITUS, name, `not on Citus: ${why}`, fn);
}

/**
 * Every backend's activity as pg_stat_activity shows it, with its `global_pid` and `is_worker_query`: on
 * Citus a statement's locks are taken and waited for on the workspace's worker, which citus_stat_activity
 * lists from the coordinator, its backend named by the coordinator's global pid.
 */
export const ACTIVITY = TEST_ON_CITUS
  ? 'citus_stat_activity'
  : '(SELECT pid AS global_pid, false AS is_worker_query, * FROM pg_stat_activity)';

/** The id by which ACTIVITY and LOCK_WAITERS name the session that runs it. */
export const SESSION_ID = TEST_ON_CITUS ? 'SELECT citus_backend_gpid() AS id' : 'SELECT pg_backend_pid() AS id';

/** How many sessions wait for a lock that session $1 (SESSION_ID) holds. */
export const LOCK_WAITERS = TEST_ON_CITUS
  ? 'SELECT count(*)::int AS n FROM citus_lock_waits WHERE blocking_gpid = $1'
  : 'SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1 = ANY (pg_blocking_pids(pid))';
