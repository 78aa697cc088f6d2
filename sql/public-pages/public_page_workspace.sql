-- public_page_workspace: PUBLIC_PAGE_WORKSPACE (src/public-pages). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :aliasId
SELECT
  team_id
FROM
  public_page_aliases
WHERE
  alias_id = :aliasId
