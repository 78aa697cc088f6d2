-- allocate_tag_id: ALLOCATE_TAG_ID (src/tags). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :teamId
INSERT INTO
  id_counters AS k (team_id, kind, last_id, last_count)
SELECT
  :teamId,
  'tag',
  COALESCE(
    (
      SELECT
        max(x.id)
      FROM
        tags x
      WHERE
        x.team_id = :teamId
    ),
    0
  ) + n.count,
  n.count
FROM
  (
    SELECT
      1 AS count
  ) n
ON CONFLICT (team_id, kind) DO UPDATE
SET
  last_id = greatest(k.last_id, EXCLUDED.last_id - EXCLUDED.last_count) + EXCLUDED.last_count,
  last_count = EXCLUDED.last_count
RETURNING
  k.last_id - k.last_count + 1 AS first_id,
  k.last_id AS last_id
