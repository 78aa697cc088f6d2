-- list_pages_scope: LIST_SCOPE (src/pages-list). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :teamId, $2 :projectId, $3 :parentId
SELECT
  EXISTS (
    SELECT
      1
    FROM
      projects pr
    WHERE
      pr.team_id = :teamId
      AND pr.id = :projectId::text
  ) AS project_found,
  (
    SELECT
      pg.project_id
    FROM
      pages pg
    WHERE
      pg.team_id = :teamId
      AND pg.id = :parentId::bigint
  ) AS parent_project
