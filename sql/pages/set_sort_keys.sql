-- set_sort_keys: SET_SORT_KEYS (src/pages). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :ids, $2 :sortKeys, $3 :teamId
UPDATE pages p
SET
  sort_key = k.sort_key
FROM
  unnest(:ids::BIGINT[], :sortKeys::TEXT[]) AS k (id, sort_key)
WHERE
  p.team_id = :teamId
  AND p.id = k.id
