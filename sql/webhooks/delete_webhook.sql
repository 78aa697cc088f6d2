-- delete_webhook: DELETE_WEBHOOK (src/webhooks). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :teamId, $2 :webhookId
DELETE FROM webhooks
WHERE
  team_id = :teamId
  AND id = :webhookId
RETURNING
  id::text
