-- on_citus: ON_CITUS (src/database). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: none
SELECT
  EXISTS (
    SELECT
      1
    FROM
      pg_extension
    WHERE
      extname = 'citus'
  ) AS citus
