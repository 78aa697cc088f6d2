-- release_key: RELEASE_KEY (src/safe-writes). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :teamId, $2 :userId, $3 :key, $4 :claim
DELETE FROM idempotency_keys
WHERE
  team_id = :teamId
  AND user_id = :userId
  AND key = :key
  AND claim = :claim
  AND status IS NULL
