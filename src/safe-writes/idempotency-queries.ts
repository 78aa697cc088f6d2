import { statement } from '../database/statement';

/** How long a successful answer is kept. */
export const KEPT_FOR = `interval '24 hours'`;

/** The key of a write and this request's claim on it: the last parameters of every write statement. */
export type KeyParams = [key: string | null, claim: string | null];

/** A key row as CLAIM_KEY leaves it. */
export interface ClaimRow {
  /** This request holds the key: run the write. */
  won: boolean;
  /** The key was first used with the same method, path and body. */
  same_request: boolean;
  /** The kept answer's status; null while the first request runs. */
  status: number | null;
  answer: Record<string, unknown> | null;
}

/**
 * CTE `no_flush` (select from it once): the statement's transaction commits without waiting for its WAL
 * to reach the disk. Safe for a claim: the write that follows it commits synchronously, and that flush
 * takes every earlier record with it; a claim lost in a crash before then guarded no change.
 */
const NOT_WAITING_FOR_FLUSH = `no_flush AS MATERIALIZED (SELECT set_config('synchronous_commit', 'off', true))`;

/** A key row the next request may take: it expired (24 hours after its claim), or its claim is dead. */
const FREE = `(k.expires_at <= now() OR (k.status IS NULL AND k.claimed_until <= now()))`;

/**
 * Claims key $3 of user $2 in workspace $1 for request fingerprint $4 with claim $5 for $6 ms (kept 24
 * hours from now, so that keeping the answer leaves the indexed expires_at alone), in one
 * statement: a new key, an expired one or a dead claim is taken; any other key row is returned as it
 * is (a kept answer or a running claim), so the caller replays, refuses or waits.
 */
export const CLAIM_KEY = statement<
  [teamId: string, userId: string, key: string, fingerprint: Buffer, claim: string, leaseMs: number],
  ClaimRow
>(
  'claim_key',
  `WITH ${NOT_WAITING_FOR_FLUSH}
   INSERT INTO idempotency_keys AS k (team_id, user_id, key, fingerprint, claim, claimed_until, expires_at)
   SELECT $1, $2, $3, $4, $5, now() + $6 * interval '1 ms', now() + ${KEPT_FOR} FROM no_flush
   ON CONFLICT (team_id, user_id, key) DO UPDATE
      SET fingerprint = CASE WHEN ${FREE} THEN EXCLUDED.fingerprint ELSE k.fingerprint END,
          claim = CASE WHEN ${FREE} THEN EXCLUDED.claim ELSE k.claim END,
          claimed_until = CASE WHEN ${FREE} THEN EXCLUDED.claimed_until ELSE k.claimed_until END,
          status = CASE WHEN ${FREE} THEN NULL ELSE k.status END,
          answer = CASE WHEN ${FREE} THEN NULL ELSE k.answer END,
          expires_at = CASE WHEN ${FREE} THEN EXCLUDED.expires_at ELSE k.expires_at END
   RETURNING k.claim IS NOT DISTINCT FROM $5 AS won, k.fingerprint = $4 AS same_request, k.status, k.answer`,
);

/** Gives up claim $4 on a key after its request failed: a failure keeps nothing (a kept answer stays: it happened). */
export const RELEASE_KEY = statement<[teamId: string, userId: string, key: string, claim: string], never>(
  'release_key',
  `DELETE FROM idempotency_keys WHERE team_id = $1 AND user_id = $2 AND key = $3 AND claim = $4 AND status IS NULL`,
);

/** Forgets up to $1 keys whose answer or claim has expired; returns how many. */
export const SWEEP_KEYS = statement<[limit: number], { id: string }>(
  'sweep_keys',
  `DELETE FROM idempotency_keys
    WHERE (team_id, user_id, key) IN (SELECT team_id, user_id, key FROM idempotency_keys
                                        WHERE expires_at <= now() LIMIT $1)
   RETURNING key AS id`,
);

/** Where a write statement has its key, its claim and its caller (a parameter each); the team is $1. */
export interface KeyParameters {
  key: string;
  claim: string;
  /** Default $3. */
  caller?: string;
}

/**
 * What a write statement whose team is $1 puts where for its idempotency key, in its keyed form
 * (KEYED) or its form for requests without a key (KEYLESS, which leaves the key's CTEs out of the
 * plan every execution starts). Both forms take the same parameters.
 */
export interface KeyParts {
  /**
   * CTE `key_held` and a comma: locks the key row while this request's claim on it stands (a takeover
   * after a dead claim waits, or has already taken it). It reads CTE `lockedFirst`, the one that locks
   * the resource's row (if any), so that it locks the key only once it has the resource: a repeat of
   * the request waiting for the same row gets its 409 at once instead of waiting behind the key.
   */
  held(lockedFirst?: string): string;
  /** True when the write carries no key, or this request's claim on it stands. */
  holds: string;
  /**
   * A comma and CTE `kept`: the answer (status, and `answer`, a jsonb expression over the answer row
   * `r` of CTE `result`) is kept when `succeeded` (over `r`) holds, by the statement that made the
   * change: a change is never applied twice, even when the process dies before answering.
   */
  keep(status: number, answer: string, succeeded: string): string;
}

/** With the key at `key`: the write runs only while this request's claim stands, and keeps its answer. */
export const KEYED = ({ key, claim, caller = '$3' }: KeyParameters): KeyParts => ({
  held: (lockedFirst) => `
  key_held AS MATERIALIZED (
    SELECT FROM idempotency_keys k
     WHERE ${lockedFirst ? `EXISTS (SELECT FROM ${lockedFirst})` : 'true'}
       AND k.team_id = $1 AND k.user_id = ${caller}::text AND k.key = ${key}::text AND k.claim = ${claim}::uuid
       FOR NO KEY UPDATE OF k
  ),`,
  holds: `(${key}::text IS NULL OR EXISTS (SELECT FROM key_held))`,
  keep: (status, answer, succeeded) => `,
  kept AS (
    UPDATE idempotency_keys k
       SET status = ${status}, answer = ${answer}, claim = NULL, claimed_until = NULL
      FROM result r
     WHERE ${key}::text IS NOT NULL AND k.team_id = $1 AND k.user_id = ${caller}::text AND k.key = ${key}::text
       AND k.claim = ${claim}::uuid AND ${succeeded}
  )`,
});

/**
 * No key: nothing is locked or kept, and a key passed anyway is never held (the write refuses). Its
 * `kept` is a query nothing reads, which the planner leaves out; it names the parameters only the
 * answer uses, so that PostgreSQL knows their types.
 */
export const KEYLESS = ({ key, claim }: KeyParameters): KeyParts => ({
  held: () => '',
  holds: `(${key}::text IS NULL)`,
  keep: (_status, answer, succeeded) => `,
  kept AS (
    SELECT ${answer} FROM result r WHERE ${key}::text IS NOT NULL AND ${claim}::uuid IS NOT NULL AND ${succeeded}
  )`,
});
