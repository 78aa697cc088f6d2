import { stimeSql } from '../common/stime';

/**
 * The card row, locked for the rest of the transaction so attaches to one card take turns, and
 * whether the caller is one of its members (a guest writes only then).
 * $1 team_id, $2 card_id, $3 caller user_id.
 */
export const LOCK_CARD = `
  SELECT c.project_id,
         EXISTS (SELECT 1 FROM card_members m WHERE m.team_id = c.team_id AND m.card_id = c.id AND m.user_id = $3) AS caller_is_member
    FROM cards c
   WHERE c.team_id = $1 AND c.id = $2
     FOR NO KEY UPDATE`;

/**
 * One statement whatever the number of ids: which ids name no usable tag, the insert of the new
 * pairs in the order given, and the card's update stamp only if something was attached. The caller
 * rolls the transaction back when any id is unknown, so nothing of that request stays. One pass over
 * the ids finds both the usable tags and the unknown ids (the tag key is unique, so the outer join
 * gives each id one row).
 * $1 team_id, $2 card_id, $3 tag ids (bigint[], distinct), $4 the card's project_id, $5 the actor (jsonb).
 */
export const ATTACH_TAGS = `
  WITH wanted AS MATERIALIZED (
         SELECT w.tag_id, w.ord, t.id IS NOT NULL AS usable
           FROM unnest($3::bigint[]) WITH ORDINALITY AS w(tag_id, ord)
           LEFT JOIN tags t ON t.team_id = $1 AND t.id = w.tag_id AND (t.project_id IS NULL OR t.project_id = $4)
       ),
       attached AS (
         INSERT INTO card_tags (team_id, card_id, tag_id)
         SELECT $1, $2, tag_id FROM wanted WHERE usable ORDER BY ord
         ON CONFLICT DO NOTHING
         RETURNING tag_id
       ),
       stamped AS (
         UPDATE cards SET time_updated = now(), updated_by = $5::jsonb
          WHERE team_id = $1 AND id = $2 AND EXISTS (SELECT 1 FROM attached)
         RETURNING 1
       )
  SELECT ARRAY(SELECT tag_id::text FROM wanted WHERE NOT usable) AS unknown,
         (SELECT count(*) FROM attached)::int AS attached`;

/** A card with its members and its tags in the order attached, in one round trip. $1 team_id, $2 card_id, $3 caller. */
export const READ_CARD = `
  SELECT c.id::text, c.team_id, c.project_id, c.title, c.owner_id, c.created_by, c.updated_by,
         ${stimeSql('c.time_created')}::float8 AS time_created,
         ${stimeSql('c.time_updated')}::float8 AS time_updated,
         EXISTS (SELECT 1 FROM card_members m WHERE m.team_id = c.team_id AND m.card_id = c.id AND m.user_id = $3) AS caller_is_member,
         COALESCE((
           SELECT json_agg(json_build_object('user_id', m.user_id, 'assigned_date', ${stimeSql('m.assigned_at')})
                           ORDER BY m.assigned_at, m.user_id)
             FROM card_members m WHERE m.team_id = c.team_id AND m.card_id = c.id
         ), '[]') AS members,
         COALESCE((
           SELECT json_agg(json_build_object(
                    'id', t.id::text, 'team_id', t.team_id, 'project_id', t.project_id, 'name', t.name,
                    'slug', t.slug, 'color', t.color,
                    'total_cards', (SELECT count(*) FROM card_tags n WHERE n.team_id = t.team_id AND n.tag_id = t.id))
                  ORDER BY ct.attached_seq)
             FROM card_tags ct JOIN tags t ON t.team_id = ct.team_id AND t.id = ct.tag_id
            WHERE ct.team_id = c.team_id AND ct.card_id = c.id
         ), '[]') AS tags
    FROM cards c
   WHERE c.team_id = $1 AND c.id = $2`;
