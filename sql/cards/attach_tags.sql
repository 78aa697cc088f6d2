-- attach_tags: ATTACH_TAGS (src/cards). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :teamId, $2 :cardId, $3 :tagIds, $4 :allStorable, $5 :listedOnly, $6 :callerId, $7 :actor, $8 :ifMatch, $9 :idempotencyKey, $10 :keyClaim, $11 :traceParent
SELECT
  attach_card_tags (
    :teamId::text,
    :cardId::bigint,
    :tagIds::BIGINT[],
    :allStorable::boolean,
    :listedOnly::boolean,
    :callerId::text,
    :actor::jsonb,
    :ifMatch::TEXT[],
    :idempotencyKey::text,
    :keyClaim::uuid,
    :traceParent::text
  ) AS written
