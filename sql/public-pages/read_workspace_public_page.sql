-- read_workspace_public_page: READ_WORKSPACE_PUBLIC_PAGE (src/public-pages). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :renderedKey, $2 :teamId, $3 :aliasId
SELECT
  p.id::text,
  p.alias_id::text,
  p.title,
  p.font,
  p.icon,
  p.cover_image,
  CASE
    WHEN k.render_key = :renderedKey THEN NULL
    ELSE p.content
  END AS content,
  p.public_robots,
  floor(
    extract(
      epoch
      FROM
        p.time_updated
    ) * 1000
  )::bigint::float8 AS time_updated,
  k.render_key
FROM
  public_page_aliases d
  CROSS JOIN LATERAL (
    SELECT
      p.*
    FROM
      pages p
    WHERE
      p.team_id = :teamId
      AND p.id = d.page_id
      AND p.alias_id = d.alias_id
      AND p.is_public
      AND (
        SELECT
          a.page_id
        FROM
          page_archives a
        WHERE
          a.team_id = :teamId
          AND a.page_id = p.id
      ) IS NULL
    LIMIT
      1
  ) p
  CROSS JOIN LATERAL (
    SELECT
      concat_ws(
        '/',
        p.team_id,
        p.id,
        p.version,
        floor(
          extract(
            epoch
            FROM
              p.time_updated
          ) * 1000
        )::bigint
      ) AS render_key
  ) k
WHERE
  d.alias_id = :aliasId
  AND d.team_id = :teamId
