-- retire_tag_id: RETIRE_TAG_ID (src/tags). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :teamId, $2 :tagId
INSERT INTO
  id_counters AS k (team_id, kind, last_id)
SELECT
  :teamId,
  'tag',
  m.id
FROM
  (
    SELECT
      max(d.id) AS id
    FROM
      (
        SELECT
          :tagId::bigint AS id
      ) d
  ) m
WHERE
  m.id > COALESCE(
    (
      SELECT
        c.last_id
      FROM
        id_counters c
      WHERE
        c.team_id = :teamId
        AND c.kind = 'tag'
    ),
    -1
  )
ON CONFLICT (team_id, kind) DO UPDATE
SET
  last_id = greatest(k.last_id, EXCLUDED.last_id)
