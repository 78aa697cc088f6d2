-- keep_answer: KEEP_ANSWER (src/safe-writes). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :status, $2 :answer, $3 :teamId, $4 :callerId, $5 :idempotencyKey, $6 :keyClaim
UPDATE idempotency_keys k
SET
  status = :status::int,
  answer = :answer::jsonb,
  claim = NULL,
  claimed_until = NULL
WHERE
  k.team_id = :teamId
  AND k.user_id = :callerId::text
  AND k.key = :idempotencyKey::text
  AND k.claim = :keyClaim::uuid
RETURNING
  TRUE AS kept
