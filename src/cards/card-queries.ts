import { statement } from '../database/statement';
import { stimeSql } from '../database/stime';
import { writeStatement } from '../write-path/write-statement';
import { CardDto } from './dto/card.response';

/** A card's row and whether the caller may attach to it, and the ids that name no usable tag. */
export interface AttachRow {
  caller_is_member: boolean;
  unknown: string[];
  /** The card's version after the attach (migration 0007); its ETag. */
  version: string;
}

/** CTE body: the planned card (`a`) stamped with a new version when CTE `changed` changed its tags. */
const STAMP_CARD = (changed: string) => `
      UPDATE cards c SET time_updated = a.now, updated_by = :actor::jsonb, version = c.version + 1
        FROM planned a
       WHERE c.team_id = :teamId AND c.id = a.id AND EXISTS (SELECT 1 FROM ${changed})`;

/** The card's (`card`) version after the statement: one more when CTE `changed` changed its tags. */
const VERSION_AFTER = (changed: string) =>
  `(card.version + CASE WHEN EXISTS (SELECT FROM ${changed}) THEN 1 ELSE 0 END)::text AS version`;

/** A tag attach: who attaches which ids (those that fit a bigint) to which card. */
export interface AttachTagsParams {
  teamId: string;
  cardId: string;
  callerId: string;
  actor: string;
  tagIds: string[];
  /** Attach only if the caller is one of the card's members (a guest). */
  listedOnly: boolean;
  /** Every id the request named fits a bigint (tagIds holds them all). */
  allStorable: boolean;
}

/**
 * The ids of `ids` that name tags of the workspace, each held (KEY SHARE) for the rest of the transaction,
 * in id order. An uncorrelated subquery of a card's lock-read, so it runs before the card is locked: a
 * tag write always takes its tags before its card, as a tag's deletion does (DELETE_TAG), so neither
 * waits on the other in a circle. A tag deleted while this waited is not held, and not usable.
 */
const HELD_TAGS = (ids: string) => `
  (SELECT COALESCE(array_agg(h.id), '{}') FROM (
     SELECT t.id FROM tags t WHERE t.team_id = :teamId AND t.id = ANY (${ids}) ORDER BY t.id FOR KEY SHARE
   ) h)`;

/**
 * A tag attach in one statement, atomic on its own, whatever the number of ids: holds the tags, locks the card's row
 * (attaches to one card take turns), finds which ids name no usable tag (one outer join: the tag key
 * is unique, so each id gets one row), and only when the caller may write the card and every id is
 * usable, inserts the new pairs in the order given and stamps the card (a new version) if something
 * was attached, announcing the newly attached ids to the workspace's webhooks. No row: no such card.
 */
export const ATTACH_TAGS = writeStatement<AttachTagsParams, AttachRow>('attach_tags', {
  target: `
    SELECT c.team_id, c.id, c.project_id, c.version, ${HELD_TAGS(':tagIds::bigint[]')} AS held_tags,
           EXISTS (SELECT 1 FROM card_members m
                    WHERE m.team_id = :teamId AND m.card_id = c.id AND m.user_id = :callerId) AS caller_is_member
      FROM cards c
     WHERE c.team_id = :teamId AND c.id = :cardId
       FOR NO KEY UPDATE`,
  reads: {
    wanted: `
      SELECT w.tag_id, w.ord, t.id IS NOT NULL AS usable
        FROM unnest(:tagIds::bigint[]) WITH ORDINALITY AS w(tag_id, ord)
        LEFT JOIN target card ON true
        LEFT JOIN tags t ON t.team_id = :teamId AND t.id = w.tag_id AND t.id = ANY (card.held_tags)
                        AND (t.project_id IS NULL OR t.project_id = card.project_id)`,
  },
  plan: `
    SELECT team_id, id, now() AS now FROM target
     WHERE (caller_is_member OR NOT :listedOnly::boolean) AND :allStorable::boolean
       AND NOT EXISTS (SELECT 1 FROM wanted WHERE NOT usable)`,
  changes: {
    attached: `
      INSERT INTO card_tags (team_id, card_id, tag_id)
      SELECT :teamId, a.id, w.tag_id FROM planned a CROSS JOIN wanted w ORDER BY w.ord
      ON CONFLICT DO NOTHING
      RETURNING tag_id`,
    stamped: STAMP_CARD('attached'),
  },
  result: `
    SELECT card.caller_is_member, ARRAY(SELECT tag_id::text FROM wanted WHERE NOT usable ORDER BY ord) AS unknown,
           ${VERSION_AFTER('attached')},
           EXISTS (SELECT FROM planned) AS attaches
      FROM target card`,
  keep: { status: 204, succeeded: 'r.attaches' },
  event: `
    SELECT 'card.tags_added' AS type, 'card' AS resource_type, a.id::text AS resource_id, :actor::jsonb AS actor,
           jsonb_build_object('card_id', a.id::text, 'tag_ids', (
             SELECT jsonb_agg(n.tag_id::text ORDER BY w.ord) FROM attached n JOIN wanted w ON w.tag_id = n.tag_id
           )) AS resource,
           NULL::jsonb AS previous
      FROM planned a WHERE EXISTS (SELECT 1 FROM attached)`,
});

/** A tag removal: who removes which tag (null: an id too large to name one) from which card. */
export interface RemoveTagParams {
  teamId: string;
  cardId: string;
  callerId: string;
  actor: string;
  tagId: string | null;
  /** Remove only if the caller is one of the card's members (a guest). */
  listedOnly: boolean;
}

/** A card's row and whether the caller may write it, whether the tag exists, and the card's version after. */
export interface RemoveRow {
  caller_is_member: boolean;
  tag_exists: boolean;
  version: string;
}

/**
 * A tag removal in one statement: holds the tag (as an attach does, so a deletion of the tag waits or
 * is waited for), locks the card's row, and when the caller may write the card and the tag exists,
 * takes the tag off it; only if it was on the card is the card stamped (a new version) and the removal
 * announced. A tag that is not on the card changes nothing. No row: no such card.
 */
export const REMOVE_TAG = writeStatement<RemoveTagParams, RemoveRow>('remove_card_tag', {
  target: `
    SELECT c.team_id, c.id, c.version, ${HELD_TAGS('ARRAY[:tagId::bigint]')} AS held_tags,
           EXISTS (SELECT 1 FROM card_members m
                    WHERE m.team_id = :teamId AND m.card_id = c.id AND m.user_id = :callerId) AS caller_is_member
      FROM cards c
     WHERE c.team_id = :teamId AND c.id = :cardId
       FOR NO KEY UPDATE`,
  plan: `
    SELECT team_id, id, now() AS now FROM target
     WHERE (caller_is_member OR NOT :listedOnly::boolean) AND cardinality(held_tags) = 1`,
  changes: {
    // = ANY, not =: a null id makes `=` fold to NULL, and Citus then leaves card_tags out of the shard's query.
    removed: `
      DELETE FROM card_tags n USING planned a
       WHERE n.team_id = :teamId AND n.card_id = a.id AND n.tag_id = ANY (ARRAY[:tagId::bigint])
      RETURNING n.tag_id`,
    stamped: STAMP_CARD('removed'),
  },
  result: `
    SELECT card.caller_is_member, cardinality(card.held_tags) = 1 AS tag_exists,
           ${VERSION_AFTER('removed')},
           EXISTS (SELECT FROM planned) AS removes
      FROM target card`,
  keep: { status: 204, succeeded: 'r.removes' },
  event: `
    SELECT 'card.tags_removed' AS type, 'card' AS resource_type, a.id::text AS resource_id, :actor::jsonb AS actor,
           jsonb_build_object('card_id', a.id::text, 'tag_ids', (SELECT jsonb_agg(n.tag_id::text) FROM removed n))
             AS resource,
           NULL::jsonb AS previous
      FROM planned a WHERE EXISTS (SELECT 1 FROM removed)`,
});

/** A row of READ_CARD. */
export interface CardRow extends Omit<CardDto, 'user' | 'user_updated'> {
  created_by: CardDto['user'];
  updated_by: CardDto['user_updated'];
  caller_is_member: boolean;
  /** Counts the card's changes (migration 0007); its ETag. */
  version: string;
}

const READ = `
  SELECT c.id::text, c.team_id, c.project_id, c.title, c.owner_id, c.created_by, c.updated_by, c.version::text,
         ${stimeSql('c.time_created')}::float8 AS time_created,
         ${stimeSql('c.time_updated')}::float8 AS time_updated,
         EXISTS (SELECT 1 FROM card_members m
                  WHERE m.team_id = :teamId AND m.card_id = c.id AND m.user_id = :callerId) AS caller_is_member,
         COALESCE((
           SELECT json_agg(json_build_object('user_id', m.user_id, 'assigned_date', ${stimeSql('m.assigned_at')})
                           ORDER BY m.assigned_at, m.user_id)
             FROM card_members m WHERE m.team_id = :teamId AND m.card_id = c.id
         ), '[]') AS members,
         COALESCE((
           SELECT json_agg(json_build_object(
                    'id', t.id::text, 'team_id', t.team_id, 'project_id', t.project_id, 'name', t.name,
                    'slug', t.slug, 'color', t.color,
                    'total_cards', (SELECT count(*) FROM card_tags n WHERE n.team_id = :teamId AND n.tag_id = t.id))
                  ORDER BY ct.attached_seq)
             FROM card_tags ct JOIN tags t ON t.team_id = :teamId AND t.id = ct.tag_id
            WHERE ct.team_id = :teamId AND ct.card_id = c.id
         ), '[]') AS tags
    FROM cards c
   WHERE c.team_id = :teamId AND c.id = :cardId`;

/** Which card, for whom. */
export interface CardKey {
  teamId: string;
  cardId: string;
  callerId: string;
}

/** A card with its members and its tags in the order attached, in one round trip. */
export const READ_CARD = statement<CardKey, CardRow>('read_card', READ);

/** READ_CARD with the row locked for the rest of the transaction: a conditional attach's first step. */
export const LOCK_READ_CARD = statement<CardKey, CardRow>('lock_read_card', `${READ} FOR NO KEY UPDATE OF c`);
