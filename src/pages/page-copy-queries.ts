import { allocateIds } from '../database/id-counters';
import { statement } from '../database/statement';
import { insertedRow, writeStatement } from '../write-path/write-statement';
import { ADD_CREATOR, NEW_PAGE_COLUMNS, NEW_PAGE_VIEW } from './page-creation-queries';
import { PageRow } from './page-queries';

/** One page of a subtree to copy, in tree order: its parent's ordinal in that order (0: it is the root). */
export interface SubtreePageRow {
  id: string;
  parent_ordinal: number;
}

/**
 * The active subtree of page :pageId in tree order (depth-first, siblings by sort key), each page with
 * the 1-based ordinal of its parent in that order; at most :max pages (one more tells it is too large).
 */
export const SUBTREE_TO_COPY = statement<{ teamId: string; pageId: string; max: number }, SubtreePageRow>(
  'subtree_to_copy',
  `WITH RECURSIVE subtree AS (
     SELECT p.id, NULL::bigint AS parent_id, ARRAY[]::text[] COLLATE "C" AS path
       FROM pages p WHERE p.team_id = :teamId AND p.id = :pageId
     UNION ALL
     SELECT c.id, c.parent_id, s.path || c.sort_key
       FROM subtree s JOIN pages c ON c.team_id = :teamId AND c.parent_id = s.id AND c.sort_key IS NOT NULL
   ), ordered AS (
     SELECT id, parent_id, row_number() OVER (ORDER BY path) AS ordinal FROM subtree
   )
   SELECT o.id::text, COALESCE(up.ordinal, 0)::int AS parent_ordinal
     FROM ordered o LEFT JOIN ordered up ON up.id = o.parent_id
    ORDER BY o.ordinal LIMIT :max::int + 1`,
);

/** The pages to copy (ordinals as SUBTREE_TO_COPY gives them) and where the copy of the first goes. */
export interface CopyPagesParams {
  teamId: string;
  callerId: string;
  actor: string;
  sourceIds: string[];
  parentOrdinals: number[];
  projectId: string;
  parentId: string | null;
  sortKey: string;
  position: number;
  /** The copy's title; null: the original's. */
  title: string | null;
}

/** A row of COPY_PAGES: the copy of the first page, or nulls when nothing was written. */
export type CopiedPageRow = PageRow;

/**
 * Copies pages in one statement: takes as many new page ids as there are pages, inserts the copies
 * (the first at the planned key under the planned parent, the others under the copies of their parents
 * with their originals' keys), with the originals' content and display options, not public, with the
 * caller as their one member; keeps the answer (the first copy) and announces one page.created per
 * copy, in tree order, each with copied_from.
 */
export const COPY_PAGES = writeStatement<CopyPagesParams, CopiedPageRow>('copy_pages', {
  plan: `
    SELECT s.ordinal, s.parent_ordinal, o.id AS source_id, o.sort_key, o.title, o.font, o.icon, o.cover_image,
           o.content, o.schema, o.hide_table_of_contents, o.hide_subpages, now() AS now,
           CASE WHEN s.ordinal = 1 THEN :position::int
                ELSE (row_number() OVER (PARTITION BY s.parent_ordinal ORDER BY o.sort_key) - 1)::int
           END AS known_position
      FROM unnest(:sourceIds::bigint[], :parentOrdinals::int[]) WITH ORDINALITY AS s(source_id, parent_ordinal, ordinal)
      JOIN pages o ON o.team_id = :teamId AND o.id = s.source_id`,
  changes: {
    allocated: allocateIds('page', '(SELECT count(*) FROM planned)'),
    inserted: `
      INSERT INTO pages AS p (${NEW_PAGE_COLUMNS})
      SELECT :teamId, k.first_id + n.ordinal - 1, :projectId,
             CASE WHEN n.ordinal = 1 THEN :parentId::bigint ELSE k.first_id + n.parent_ordinal - 1 END,
             CASE WHEN n.ordinal = 1 THEN :sortKey::text ELSE n.sort_key END,
             CASE WHEN n.ordinal = 1 THEN COALESCE(:title::text, n.title) ELSE n.title END,
             n.font, n.icon, n.cover_image, n.content, n.schema, :callerId, :actor::jsonb, :actor::jsonb,
             false, NULL, '{}', n.hide_table_of_contents, n.hide_subpages, n.now, n.now
        FROM planned n, allocated k
       ORDER BY n.ordinal
      RETURNING ${insertedRow('p', 'pages')} AS page`,
    creators: ADD_CREATOR,
    numbered: `
      SELECT (i.page).*, n.known_position, n.ordinal, n.source_id
        FROM inserted i CROSS JOIN allocated k JOIN planned n ON n.ordinal = (i.page).id - k.first_id + 1`,
    copies: `
      SELECT v.*, n.source_id::text AS copied_from, n.ordinal
        FROM (${NEW_PAGE_VIEW('SELECT * FROM numbered')}) v JOIN numbered n ON n.id::text = v.id`,
  },
  result: `
    SELECT v.* FROM (SELECT) one
      LEFT JOIN (SELECT c.* FROM copies c WHERE c.ordinal = 1) v ON true`,
  keep: { status: 201, succeeded: 'r.id IS NOT NULL' },
  event: `
    SELECT 'page.created' AS type, 'page' AS resource_type, c.id AS resource_id, :actor::jsonb AS actor,
           to_jsonb(c) - 'ordinal' AS resource, NULL::jsonb AS previous
      FROM copies c ORDER BY c.ordinal`,
});
