/**
 * The idempotency key's parts of a keyed write statement (write-statement.ts), in workspace :teamId for
 * user :callerId: the key :idempotencyKey, held by this request's claim :keyClaim.
 */

/**
 * CTE `key_held`: locks the key row while this request's claim on it stands (a takeover after a dead
 * claim waits, or has already taken it). It reads CTE `target`, the one that locks the resource's row
 * (when the write has one), so that it locks the key only once it has the resource: a repeat of the
 * request waiting for the same row gets its 409 at once instead of waiting behind the key. It selects a
 * column: Citus cannot pass on a CTE's rows without one.
 */
export const KEY_HELD = (afterTarget: boolean) => `
  key_held AS MATERIALIZED (
    SELECT k.claim FROM idempotency_keys k
     WHERE ${afterTarget ? 'EXISTS (SELECT FROM target)' : 'true'}
       AND k.team_id = :teamId AND k.user_id = :callerId::text AND k.key = :idempotencyKey::text
       AND k.claim = :keyClaim::uuid
       FOR NO KEY UPDATE OF k
  )`;

/** True while this request's claim on its key stands. */
export const HOLDS_KEY = `(:idempotencyKey::text IS NULL OR EXISTS (SELECT FROM key_held))`;

/**
 * CTEs `kept_answer` and `kept`: the answer (`status`, and `answer`, a jsonb expression over the answer row `r` of
 * CTE `result`) is kept when `kept` (over `r`) holds, by the statement that made the change: a change is
 * never applied twice, even when the process dies before answering. The answer is built in a CTE of its
 * own, which the UPDATE only copies: Citus refuses a stable function over columns in an UPDATE, its
 * subqueries included.
 */
export const KEEP_ANSWER = (status: number, answer: string, kept: string) => `
  kept_answer AS MATERIALIZED (SELECT ${answer} AS answer FROM result r WHERE ${kept}),
  kept AS (
    UPDATE idempotency_keys k
       SET status = ${status}, answer = a.answer, claim = NULL, claimed_until = NULL
      FROM kept_answer a
     WHERE k.team_id = :teamId AND k.user_id = :callerId::text AND k.key = :idempotencyKey::text
       AND k.claim = :keyClaim::uuid
  )`;
