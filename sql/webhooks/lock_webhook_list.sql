-- lock_webhook_list: LOCK_WEBHOOK_LIST (src/webhooks). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :teamId
SELECT
  pg_advisory_xact_lock(hashtextextended (:teamId || ':webhooks', 0))::text AS locked
