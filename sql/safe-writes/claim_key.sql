-- claim_key: CLAIM_KEY (src/safe-writes). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :teamId, $2 :userId, $3 :key, $4 :fingerprint, $5 :claim, $6 :leaseMs
WITH
  no_flush AS MATERIALIZED (
    SELECT
      set_config('synchronous_commit', 'off', TRUE)
  )
INSERT INTO
  idempotency_keys AS k (
    team_id,
    user_id,
    key,
    fingerprint,
    claim,
    claimed_at,
    claimed_until,
    expires_at
  )
SELECT
  :teamId::text,
  :userId::text,
  :key::text,
  :fingerprint::bytea,
  :claim::uuid,
  now(),
  now() + :leaseMs::float8 * interval '1 ms',
  now() + interval '24 hours'
FROM
  no_flush
ON CONFLICT (team_id, user_id, key) DO UPDATE
SET
  fingerprint = CASE
    WHEN (
      k.expires_at <= EXCLUDED.claimed_at
      OR (
        k.status IS NULL
        AND k.claimed_until <= EXCLUDED.claimed_at
      )
    ) THEN EXCLUDED.fingerprint
    ELSE k.fingerprint
  END,
  claim = CASE
    WHEN (
      k.expires_at <= EXCLUDED.claimed_at
      OR (
        k.status IS NULL
        AND k.claimed_until <= EXCLUDED.claimed_at
      )
    ) THEN EXCLUDED.claim
    ELSE k.claim
  END,
  claimed_at = CASE
    WHEN (
      k.expires_at <= EXCLUDED.claimed_at
      OR (
        k.status IS NULL
        AND k.claimed_until <= EXCLUDED.claimed_at
      )
    ) THEN EXCLUDED.claimed_at
    ELSE k.claimed_at
  END,
  claimed_until = CASE
    WHEN (
      k.expires_at <= EXCLUDED.claimed_at
      OR (
        k.status IS NULL
        AND k.claimed_until <= EXCLUDED.claimed_at
      )
    ) THEN EXCLUDED.claimed_until
    ELSE k.claimed_until
  END,
  status = CASE
    WHEN (
      k.expires_at <= EXCLUDED.claimed_at
      OR (
        k.status IS NULL
        AND k.claimed_until <= EXCLUDED.claimed_at
      )
    ) THEN NULL
    ELSE k.status
  END,
  answer = CASE
    WHEN (
      k.expires_at <= EXCLUDED.claimed_at
      OR (
        k.status IS NULL
        AND k.claimed_until <= EXCLUDED.claimed_at
      )
    ) THEN NULL
    ELSE k.answer
  END,
  expires_at = CASE
    WHEN (
      k.expires_at <= EXCLUDED.claimed_at
      OR (
        k.status IS NULL
        AND k.claimed_until <= EXCLUDED.claimed_at
      )
    ) THEN EXCLUDED.expires_at
    ELSE k.expires_at
  END
RETURNING
  k.claim,
  k.fingerprint,
  k.status,
  k.answer
