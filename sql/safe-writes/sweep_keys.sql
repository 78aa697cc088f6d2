-- sweep_keys: SWEEP_KEYS (src/safe-writes). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :limit
DELETE FROM idempotency_keys
WHERE
  expires_at <= LEAST(
    now(),
    (
      SELECT
        expires_at
      FROM
        idempotency_keys
      WHERE
        expires_at <= now()
      ORDER BY
        expires_at
      OFFSET
        :limit - 1
      LIMIT
        1
    )
  )
RETURNING
  key AS id
