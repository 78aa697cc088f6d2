-- authenticate: AUTHENTICATE (src/auth). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :tokenHash
SELECT
  t.id,
  t.team_id,
  t.user_id,
  t.actor,
  t.expires_at,
  (
    SELECT
      m.role
    FROM
      members m
    WHERE
      m.team_id = t.team_id
      AND m.user_id = t.user_id
  ) AS role
FROM
  tokens t
WHERE
  t.token_hash = :tokenHash
  AND t.revoked_at IS NULL
  AND (
    t.expires_at IS NULL
    OR t.expires_at > now()
  )
