-- tag_project_exists: PROJECT_EXISTS (src/tags). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :teamId, $2 :projectId
SELECT
  EXISTS (
    SELECT
      1
    FROM
      projects p
    WHERE
      p.team_id = :teamId
      AND p.id = :projectId
  ) AS EXISTS
