-- sweep_keys: SWEEP_KEYS (src/safe-writes). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :limit
DELETE FROM idempotency_keys
WHERE
  (team_id, user_id, key) IN (
    SELECT
      team_id,
      user_id,
      key
    FROM
      idempotency_keys
    WHERE
      expires_at <= now()
    LIMIT
      :limit
  )
RETURNING
  key AS id
