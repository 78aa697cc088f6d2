-- lock_project: LOCK_PROJECT (src/pages). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :teamId, $2 :projectId
SELECT
  pg_advisory_xact_lock(hashtextextended (:teamId || '/' || :projectId::text, 0))::text AS locked
