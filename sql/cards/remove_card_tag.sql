-- remove_card_tag: REMOVE_TAG (src/cards). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :teamId, $2 :cardId, $3 :tagId, $4 :listedOnly, $5 :callerId, $6 :actor, $7 :ifMatch, $8 :idempotencyKey, $9 :keyClaim, $10 :traceParent
SELECT
  remove_card_tag (
    :teamId::text,
    :cardId::bigint,
    :tagId::bigint,
    :listedOnly::boolean,
    :callerId::text,
    :actor::jsonb,
    :ifMatch::TEXT[],
    :idempotencyKey::text,
    :keyClaim::uuid,
    :traceParent::text
  ) AS written
