import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The outbox and the idempotency key's kept answer, written once as functions every write function calls,
 * and the card tag writes as such functions: one call is one statement, so a write costs one round trip
 * on one node, and on Citus the call runs whole on the workspace's node (docs/citus.md). Each write reads
 * top to bottom: lock, check, change, record; it answers a jsonb object, or null when its resource is missing.
 */
export class CardWritesAsFunctions0000000000022 implements MigrationInterface {
  name = 'CardWritesAsFunctions0000000000022';

  async up(db: QueryRunner): Promise<void> {
    for (const statement of UP) await db.query(statement);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(
      `DROP FUNCTION attach_card_tags, remove_card_tag, stamp_card, card_member, finish_write, holds_key, record_event`,
    );
  }
}

/**
 * Stores a change's event, always (whether or not a webhook listens), and queues one delivery of it per
 * webhook of the workspace that subscribes to its type, each joining the stream of its webhook and resource:
 * due now if idle; a stream in flight or waiting for a retry stays as it is, its last event updated on the
 * row a finishing delivery locks. True when a delivery was queued (the delivery worker is woken).
 */
const RECORD_EVENT = `
  CREATE FUNCTION record_event(p_team_id text, p_type text, p_resource_type text, p_resource_id text, p_actor jsonb,
                               p_resource jsonb, p_previous jsonb, p_trace_parent text)
  RETURNS boolean LANGUAGE plpgsql AS $$
  DECLARE
    new_event_id bigint := nextval('webhook_events_id_seq');
    stream text := p_resource_type || ':' || p_resource_id;
    hooks bigint[];
  BEGIN
    INSERT INTO webhook_events (team_id, id, type, resource_type, resource_id, actor, resource, previous, trace_parent)
    VALUES (p_team_id, new_event_id, p_type, p_resource_type, p_resource_id, p_actor, p_resource, p_previous,
            p_trace_parent);
    hooks := ARRAY(SELECT w.id FROM webhooks w WHERE w.team_id = p_team_id AND w.events && ARRAY[p_type, '*']
                    ORDER BY w.id);
    IF cardinality(hooks) = 0 THEN
      RETURN false;
    END IF;
    INSERT INTO webhook_deliveries (team_id, webhook_id, event_id, resource_key)
    SELECT p_team_id, h, new_event_id, stream FROM unnest(hooks) h;
    INSERT INTO webhook_streams AS s (team_id, webhook_id, resource_key, next_attempt_at, last_event_id)
    SELECT p_team_id, h, stream, now(), new_event_id FROM unnest(hooks) h
    ON CONFLICT (team_id, webhook_id, resource_key)
    DO UPDATE SET next_attempt_at = COALESCE(s.next_attempt_at, excluded.next_attempt_at),
                  last_event_id = GREATEST(s.last_event_id, excluded.last_event_id);
    RETURN true;
  END $$`;

/**
 * Whether the request still holds its idempotency key (always, without one): locks the key row while its
 * claim stands, so a takeover after a dead claim waits, or has already taken it. A write asks after
 * locking its resource, so a repeat waiting for the same row gets its 409 at once, not behind the key.
 */
const HOLDS_KEY = `
  CREATE FUNCTION holds_key(p_team_id text, p_user_id text, p_key text, p_claim uuid)
  RETURNS boolean LANGUAGE plpgsql AS $$
  BEGIN
    IF p_key IS NULL THEN
      RETURN true;
    END IF;
    PERFORM FROM idempotency_keys k
     WHERE k.team_id = p_team_id AND k.user_id = p_user_id AND k.key = p_key AND k.claim = p_claim
       FOR NO KEY UPDATE;
    RETURN FOUND;
  END $$`;

/**
 * A write's answer (what the service renders), kept under the request's key with its status when the write
 * succeeded while holding the key, in the write's own transaction: a change is never applied twice, even
 * when the process dies before answering. Returns the answer with whether the key was held (a write that
 * lost it changed nothing: 409) and whether a delivery was queued.
 */
const FINISH_WRITE = `
  CREATE FUNCTION finish_write(p_team_id text, p_user_id text, p_key text, p_claim uuid, p_holds_key boolean,
                               p_status int, p_answer jsonb, p_succeeded boolean, p_announced boolean)
  RETURNS jsonb LANGUAGE plpgsql AS $$
  BEGIN
    IF p_key IS NOT NULL AND p_holds_key AND p_succeeded THEN
      UPDATE idempotency_keys k SET status = p_status, answer = p_answer, claim = NULL, claimed_until = NULL
       WHERE k.team_id = p_team_id AND k.user_id = p_user_id AND k.key = p_key AND k.claim = p_claim;
    END IF;
    RETURN p_answer || jsonb_build_object('holds_key', p_holds_key, 'announced', p_announced);
  END $$`;

/** Whether a user is one of a card's members (a guest may write only such a card). */
const CARD_MEMBER = `
  CREATE FUNCTION card_member(p_team_id text, p_card_id bigint, p_user_id text)
  RETURNS boolean LANGUAGE plpgsql STABLE AS $$
  BEGIN
    RETURN EXISTS (SELECT 1 FROM card_members m
                    WHERE m.team_id = p_team_id AND m.card_id = p_card_id AND m.user_id = p_user_id);
  END $$`;

/** Stamps a card changed by `p_actor` now, with a new version, which it returns. */
const STAMP_CARD = `
  CREATE FUNCTION stamp_card(p_team_id text, p_card_id bigint, p_actor jsonb)
  RETURNS bigint LANGUAGE plpgsql AS $$
  DECLARE
    new_version bigint;
  BEGIN
    UPDATE cards c SET time_updated = now(), updated_by = p_actor, version = c.version + 1
     WHERE c.team_id = p_team_id AND c.id = p_card_id
    RETURNING c.version INTO new_version;
    RETURN new_version;
  END $$`;

/**
 * Attaches every tag or none: holds the tags (KEY SHARE, in id order, before the card, as a tag's deletion
 * takes them, so neither waits on the other in a circle), locks the card (attaches to one card take turns),
 * and only when the caller may write the card and every id names a usable tag (of the workspace, and of the
 * card's project or none), and If-Match (the versions `p_if_match` names, when not null) accepts the card's version,
 * inserts the new pairs in the order given, stamps the card with a new version
 * and records card.tags_added with them. Tags already on the card change nothing.
 */
const ATTACH_CARD_TAGS = `
  CREATE FUNCTION attach_card_tags(p_team_id text, p_card_id bigint, p_tag_ids bigint[], p_all_storable boolean,
                                   p_listed_only boolean, p_caller_id text, p_actor jsonb,
                                   p_if_match text[], p_key text, p_claim uuid, p_trace_parent text)
  RETURNS jsonb LANGUAGE plpgsql AS $$
  DECLARE
    held bigint[] := ARRAY(SELECT t.id FROM tags t WHERE t.team_id = p_team_id AND t.id = ANY (p_tag_ids)
                            ORDER BY t.id FOR KEY SHARE);
    card_project text;
    card_version bigint;
    member boolean;
    matched boolean;
    unknown text[];
    allowed boolean;
    key_held boolean;
    added bigint[];
    announced boolean := false;
  BEGIN
    SELECT c.project_id, c.version INTO card_project, card_version FROM cards c
     WHERE c.team_id = p_team_id AND c.id = p_card_id FOR NO KEY UPDATE;
    IF NOT FOUND THEN
      RETURN NULL;
    END IF;
    member := card_member(p_team_id, p_card_id, p_caller_id);
    matched := p_if_match IS NULL OR card_version::text = ANY (p_if_match);
    unknown := ARRAY(SELECT w.id::text FROM unnest(p_tag_ids) WITH ORDINALITY AS w(id, ord)
                      WHERE NOT EXISTS (SELECT 1 FROM tags t
                                         WHERE t.team_id = p_team_id AND t.id = w.id AND t.id = ANY (held)
                                           AND (t.project_id IS NULL OR t.project_id = card_project))
                      ORDER BY w.ord);
    allowed := (member OR NOT p_listed_only) AND matched AND p_all_storable AND cardinality(unknown) = 0;
    key_held := holds_key(p_team_id, p_caller_id, p_key, p_claim);
    IF allowed AND key_held THEN
      added := ARRAY(SELECT w.id FROM unnest(p_tag_ids) WITH ORDINALITY AS w(id, ord)
                      WHERE NOT EXISTS (SELECT 1 FROM card_tags n
                                         WHERE n.team_id = p_team_id AND n.card_id = p_card_id AND n.tag_id = w.id)
                      ORDER BY w.ord);
      IF cardinality(added) > 0 THEN
        INSERT INTO card_tags (team_id, card_id, tag_id) SELECT p_team_id, p_card_id, a FROM unnest(added) a
        ON CONFLICT DO NOTHING;
        card_version := stamp_card(p_team_id, p_card_id, p_actor);
        announced := record_event(p_team_id, 'card.tags_added', 'card', p_card_id::text, p_actor,
                                  jsonb_build_object('card_id', p_card_id::text, 'tag_ids', to_jsonb(added::text[])),
                                  NULL, p_trace_parent);
      END IF;
    END IF;
    RETURN finish_write(p_team_id, p_caller_id, p_key, p_claim, key_held, 204,
                        jsonb_build_object('caller_is_member', member, 'matched', matched, 'unknown', unknown,
                                           'version', card_version::text),
                        allowed, announced);
  END $$`;

/**
 * Takes one tag off a card: holds the tag (as an attach does, so its deletion waits or is waited for),
 * locks the card, and when the caller may write the card, If-Match accepts its version and the tag exists,
 * removes it; only if it was on the card is the card stamped with a new version and card.tags_removed
 * recorded. A null id names no tag.
 */
const REMOVE_CARD_TAG = `
  CREATE FUNCTION remove_card_tag(p_team_id text, p_card_id bigint, p_tag_id bigint, p_listed_only boolean,
                                  p_caller_id text, p_actor jsonb, p_if_match text[], p_key text, p_claim uuid,
                                  p_trace_parent text)
  RETURNS jsonb LANGUAGE plpgsql AS $$
  DECLARE
    tag_exists boolean := EXISTS (SELECT 1 FROM tags t WHERE t.team_id = p_team_id AND t.id = p_tag_id FOR KEY SHARE);
    card_version bigint;
    member boolean;
    matched boolean;
    allowed boolean;
    key_held boolean;
    announced boolean := false;
  BEGIN
    SELECT c.version INTO card_version FROM cards c WHERE c.team_id = p_team_id AND c.id = p_card_id FOR NO KEY UPDATE;
    IF NOT FOUND THEN
      RETURN NULL;
    END IF;
    member := card_member(p_team_id, p_card_id, p_caller_id);
    matched := p_if_match IS NULL OR card_version::text = ANY (p_if_match);
    allowed := (member OR NOT p_listed_only) AND matched AND tag_exists;
    key_held := holds_key(p_team_id, p_caller_id, p_key, p_claim);
    IF allowed AND key_held THEN
      DELETE FROM card_tags n WHERE n.team_id = p_team_id AND n.card_id = p_card_id AND n.tag_id = p_tag_id;
      IF FOUND THEN
        card_version := stamp_card(p_team_id, p_card_id, p_actor);
        announced := record_event(p_team_id, 'card.tags_removed', 'card', p_card_id::text, p_actor,
                                  jsonb_build_object('card_id', p_card_id::text,
                                                     'tag_ids', jsonb_build_array(p_tag_id::text)),
                                  NULL, p_trace_parent);
      END IF;
    END IF;
    RETURN finish_write(p_team_id, p_caller_id, p_key, p_claim, key_held, 204,
                        jsonb_build_object('caller_is_member', member, 'matched', matched, 'tag_exists', tag_exists,
                                           'version', card_version::text),
                        allowed, announced);
  END $$`;

const UP = [RECORD_EVENT, HOLDS_KEY, FINISH_WRITE, CARD_MEMBER, STAMP_CARD, ATTACH_CARD_TAGS, REMOVE_CARD_TAG];
