import { statement } from '../database/statement';

/** How long a successful answer is kept. */
export const KEPT_FOR = `interval '24 hours'`;

/** The key of a write and this request's claim on it, as every write statement takes them (null: no key). */
export interface KeyParams {
  idempotencyKey: string | null;
  keyClaim: string | null;
}

/**
 * A key row as CLAIM_KEY leaves it. Its claim and fingerprint are compared with the request's by the caller:
 * Citus cannot run an INSERT whose RETURNING takes parameters (docs/citus.md).
 */
export interface ClaimRow {
  /** The request holding the key (null once its answer is kept); this one's claim means it runs the write. */
  claim: string | null;
  /** What the key was first used with (method, path and body). */
  fingerprint: Buffer;
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

/**
 * A key row `k` the new claim may take, as of that claim's time (EXCLUDED.claimed_at): it expired (24
 * hours after its claim), or its claim is dead.
 */
const FREE = `(k.expires_at <= EXCLUDED.claimed_at OR (k.status IS NULL AND k.claimed_until <= EXCLUDED.claimed_at))`;

/**
 * Claims a user's key in a workspace for a request's fingerprint, for `leaseMs` (kept 24 hours from now,
 * so that keeping the answer leaves the indexed expires_at alone), in one statement: a new key, an
 * expired one or a dead claim is taken; any other key row is returned as it is (a kept answer or a
 * running claim), so the caller replays, refuses or waits.
 */
export const CLAIM_KEY = statement<
  { teamId: string; userId: string; key: string; fingerprint: Buffer; claim: string; leaseMs: number },
  ClaimRow
>(
  'claim_key',
  `WITH ${NOT_WAITING_FOR_FLUSH}
   INSERT INTO idempotency_keys AS k (team_id, user_id, key, fingerprint, claim, claimed_at, claimed_until, expires_at)
   SELECT :teamId::text, :userId::text, :key::text, :fingerprint::bytea, :claim::uuid, now(),
          now() + :leaseMs::float8 * interval '1 ms', now() + ${KEPT_FOR}
     FROM no_flush
   ON CONFLICT (team_id, user_id, key) DO UPDATE
      SET fingerprint = CASE WHEN ${FREE} THEN EXCLUDED.fingerprint ELSE k.fingerprint END,
          claim = CASE WHEN ${FREE} THEN EXCLUDED.claim ELSE k.claim END,
          claimed_at = CASE WHEN ${FREE} THEN EXCLUDED.claimed_at ELSE k.claimed_at END,
          claimed_until = CASE WHEN ${FREE} THEN EXCLUDED.claimed_until ELSE k.claimed_until END,
          status = CASE WHEN ${FREE} THEN NULL ELSE k.status END,
          answer = CASE WHEN ${FREE} THEN NULL ELSE k.answer END,
          expires_at = CASE WHEN ${FREE} THEN EXCLUDED.expires_at ELSE k.expires_at END
   RETURNING k.claim, k.fingerprint, k.status, k.answer`,
);

/** Gives up a claim on a key after its request failed: a failure keeps nothing (a kept answer stays: it happened). */
export const RELEASE_KEY = statement<{ teamId: string; userId: string; key: string; claim: string }>(
  'release_key',
  `DELETE FROM idempotency_keys
    WHERE team_id = :teamId AND user_id = :userId AND key = :key AND claim = :claim AND status IS NULL`,
);

/**
 * Forgets the `limit` keys that expired first (more if several expired at that very instant), answered or
 * not; returns them. A range of the expiry index, not a join on the key: a join planned while the table was
 * empty can read every key for each expired one. A key a claim takes over meanwhile expires later: it stays.
 */
export const SWEEP_KEYS = statement<{ limit: number }, { id: string }>(
  'sweep_keys',
  `DELETE FROM idempotency_keys
    WHERE expires_at <= LEAST(now(), (SELECT expires_at FROM idempotency_keys WHERE expires_at <= now()
                                       ORDER BY expires_at OFFSET :limit - 1 LIMIT 1))
   RETURNING key AS id`,
);
