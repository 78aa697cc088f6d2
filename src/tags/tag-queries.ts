import { allocateIds, retireIds } from '../database/id-counters';
import { statement } from '../database/statement';

/**
 * A tag's name as its uniqueness and its order see it: case folded by every Unicode letter, whatever the
 * database's locale. The indexes of migration 0012 are built on exactly this expression.
 */
export const NAME_KEY = (t: string) => `lower(${t}.name COLLATE pg_c_utf8)`;

/** A tag as the API shows it, with its version (its ETag). */
export interface TagRow {
  id: string;
  team_id: string;
  project_id: string | null;
  name: string;
  slug: string;
  color: string;
  total_cards: number;
  /** Counts the tag's changes (migration 0012); its ETag. */
  version: string;
}

/** The columns of a TagRow, from tag `t`: total_cards counts the rows, so it is exact whatever runs at once. */
const TAG_VIEW = (t: string) => `
  ${t}.id::text AS id, ${t}.team_id, ${t}.project_id, ${t}.name, ${t}.slug, ${t}.color,
  (SELECT count(*) FROM card_tags n WHERE n.team_id = :teamId AND n.tag_id = ${t}.id)::int AS total_cards,
  ${t}.version::text AS version`;

/** Which tag. */
export interface TagKey {
  teamId: string;
  tagId: string;
}

/** A tag, locked against other changes to it (NO KEY UPDATE: attaches, which take KEY SHARE, go on). */
export const LOCK_TAG = statement<TagKey, TagRow>(
  'lock_tag',
  `SELECT ${TAG_VIEW('t')} FROM tags t WHERE t.team_id = :teamId AND t.id = :tagId FOR NO KEY UPDATE OF t`,
);

/**
 * A tag locked for its deletion: FOR UPDATE waits for the attaches and removals holding it (KEY SHARE)
 * and makes new ones wait, so the deletion's statement, which runs after, sees every card it is on. Only
 * the version (its ETag): counting a tag's cards would read every card it is on once more.
 */
export const LOCK_TAG_FOR_DELETE = statement<TagKey, Pick<TagRow, 'version'>>(
  'lock_tag_for_delete',
  `SELECT t.version::text AS version FROM tags t WHERE t.team_id = :teamId AND t.id = :tagId FOR UPDATE OF t`,
);

/** Whether a project exists in the workspace. */
export const PROJECT_EXISTS = statement<{ teamId: string; projectId: string }, { exists: boolean }>(
  'tag_project_exists',
  `SELECT EXISTS (SELECT 1 FROM projects p WHERE p.team_id = :teamId AND p.id = :projectId) AS exists`,
);

/** One answer of a tag list: the tags after a position (lower(name), id), at most :limit of them. */
export interface ListTagsParams {
  teamId: string;
  afterName: string;
  afterId: string;
  limit: number;
}

/** Rows of one scope after the cursor, in the order of its index (names are unique within a scope). */
const SCOPE_PAGE = (scope: string) => `
  SELECT t.* FROM tags t
   WHERE t.team_id = :teamId AND ${scope}
     AND ${NAME_KEY('t')} >= :afterName::text AND (${NAME_KEY('t')}, t.id) > (:afterName::text, :afterId::bigint)
   ORDER BY ${NAME_KEY('t')}, t.id
   LIMIT :limit`;

const LIST = (rows: string) => `
  SELECT ${TAG_VIEW('t')}, ${NAME_KEY('t')} AS name_key FROM (${rows}) t ORDER BY ${NAME_KEY('t')}, t.id LIMIT :limit`;

/** A row of a tag list, with the key the cursor keeps. */
export interface ListedTagRow extends TagRow {
  name_key: string;
}

/** The workspace-wide tags, by name ignoring case, then id (keyset: each answer costs the same). */
export const LIST_WORKSPACE_TAGS = statement<ListTagsParams, ListedTagRow>(
  'list_workspace_tags',
  LIST(SCOPE_PAGE('t.project_id IS NULL')),
);

/** The tags usable on one project's cards: its own and the workspace-wide ones, merged in order. */
export const LIST_PROJECT_TAGS = statement<ListTagsParams & { projectId: string }, ListedTagRow>(
  'list_project_tags',
  LIST(`(${SCOPE_PAGE('t.project_id IS NULL')}) UNION ALL (${SCOPE_PAGE('t.project_id = :projectId::text')})`),
);

/** Every tag of the workspace. */
export const LIST_ALL_TAGS = statement<ListTagsParams, ListedTagRow>('list_all_tags', LIST(SCOPE_PAGE('true')));

/** The workspace's next tag id (id_counters): past every id it ever used, imported or deleted. */
export const ALLOCATE_TAG_ID = statement<{ teamId: string }, { first_id: string }>(
  'allocate_tag_id',
  allocateIds('tag'),
);

/** A new tag's fields. */
export interface InsertTagParams {
  teamId: string;
  projectId: string | null;
  name: string;
  slug: string;
  color: string;
}

/**
 * Inserts a tag under the id ALLOCATE_TAG_ID took in the same transaction. The unique indexes decide the
 * name: of two creates of "Bug" and "bug" at once, the second waits for the first, then fails (23505).
 */
export const INSERT_TAG = statement<InsertTagParams, TagRow>(
  'insert_tag',
  `INSERT INTO tags AS t (team_id, id, project_id, name, slug, color)
   SELECT :teamId, k.last_id, :projectId::text, :name::text, :slug::text, :color::text
     FROM id_counters k WHERE k.team_id = :teamId AND k.kind = 'tag'
   RETURNING ${TAG_VIEW('t')}`,
);

/** A tag update: the fields it sets (null keeps a field). */
export interface UpdateTagParams extends TagKey {
  name: string | null;
  slug: string | null;
  color: string | null;
}

/**
 * Writes a locked tag's fields when one of them really changes, one more on its version; no row when
 * nothing changes. A new name another tag of the scope holds (ignoring case) fails on the unique index.
 */
export const UPDATE_TAG = statement<UpdateTagParams, TagRow>(
  'update_tag',
  `UPDATE tags t
      SET name = COALESCE(:name::text, t.name), slug = COALESCE(:slug::text, t.slug),
          color = COALESCE(:color::text, t.color), version = t.version + 1
    WHERE t.team_id = :teamId AND t.id = :tagId
      AND (COALESCE(:name::text, t.name), COALESCE(:slug::text, t.slug), COALESCE(:color::text, t.color))
          IS DISTINCT FROM (t.name, t.slug, t.color)
   RETURNING ${TAG_VIEW('t')}`,
);

/** The cards a tag is on, stamped by `actor` (a new version each): the tag is about to leave them. */
export const STAMP_TAGGED_CARDS = statement<TagKey & { actor: string }>(
  'stamp_tagged_cards',
  `UPDATE cards c SET time_updated = now(), updated_by = :actor::jsonb, version = c.version + 1
    WHERE c.team_id = :teamId
      AND c.id IN (SELECT n.card_id FROM card_tags n WHERE n.team_id = :teamId AND n.tag_id = :tagId)`,
);

/** Takes a tag off every card it is on; returns those cards. */
export const UNLINK_TAG = statement<TagKey, { card_id: string }>(
  'unlink_tag',
  `DELETE FROM card_tags n WHERE n.team_id = :teamId AND n.tag_id = :tagId RETURNING n.card_id::text`,
);

/** Deletes a tag. */
export const DELETE_TAG = statement<TagKey, { id: string }>(
  'delete_tag',
  `DELETE FROM tags t WHERE t.team_id = :teamId AND t.id = :tagId RETURNING t.id::text`,
);

/** Records a deleted tag's id as used (id_counters), so it is never handed out again. */
export const RETIRE_TAG_ID = statement<TagKey>('retire_tag_id', retireIds('tag', '(SELECT :tagId::bigint AS id)'));
