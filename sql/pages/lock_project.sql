-- lock_project: LOCK_PROJECT (src/pages). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :teamId, $2 :projectId
SELECT
  pg_advisory_xact_lock(hashtextextended (:teamId || '/' || p.id, 0))::text AS locked
FROM
  projects p
WHERE
  p.team_id = :teamId
  AND p.id = :projectId::text
