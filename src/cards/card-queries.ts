import { statement } from '../database/statement';
import { stimeSql } from '../database/stime';
import { writeCall } from '../write-path/write-call';
import { CardDto } from './dto/card.response';

/** A card's row and whether the caller may attach to it, and the ids that name no usable tag. */
export interface AttachRow {
  caller_is_member: boolean;
  /** If-Match accepted the card's version (or asked nothing): nothing was written when not. */
  matched: boolean;
  unknown: string[];
  /** The card's version after the attach (migration 0007); its ETag. */
  version: string;
}

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
 * A tag attach, all or nothing, whatever the number of ids (attach_card_tags, migration 0022). Its row:
 * none when there is no such card.
 */
export const ATTACH_TAGS = writeCall<AttachTagsParams, AttachRow>(
  'attach_tags',
  'attach_card_tags',
  `:teamId::text, :cardId::bigint, :tagIds::bigint[], :allStorable::boolean, :listedOnly::boolean,
   :callerId::text, :actor::jsonb`,
);

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
  /** If-Match accepted the card's version (or asked nothing): nothing was written when not. */
  matched: boolean;
  tag_exists: boolean;
  version: string;
}

/** A tag removal (remove_card_tag, migration 0022). Its row: none when there is no such card. */
export const REMOVE_TAG = writeCall<RemoveTagParams, RemoveRow>(
  'remove_card_tag',
  'remove_card_tag',
  `:teamId::text, :cardId::bigint, :tagId::bigint, :listedOnly::boolean, :callerId::text, :actor::jsonb`,
);

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
