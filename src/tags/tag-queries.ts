import { CASE_KEY } from '../database/case-key';
import { allocateIds, retireIds } from '../database/id-counters';
import { statement } from '../database/statement';
import { PREVIOUS_VALUES } from '../write-path/outbox-sql';
import { writeStatement } from '../write-path/write-statement';

/** A tag's name as its uniqueness and its order see it: CASE_KEY of its name, stored (migration 0012). */
export const NAME_KEY = (t: string) => `${t}.name_key`;

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

/** One answer of a tag list: the tags after a position (name_key, id), at most :limit of them. */
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

/** A tag's creation: who, and its fields. */
export interface CreateTagParams {
  teamId: string;
  callerId: string;
  actor: string;
  projectId: string | null;
  name: string;
  slug: string;
  color: string;
}

/** The answer of CREATE_TAG: the new tag, or why there is none. */
export interface CreatedTagRow extends Partial<TagRow> {
  project_found: boolean;
  /** The name is taken in its scope (the unique index said so): nothing was created. */
  taken: boolean;
}

/**
 * Creates a tag in one statement: takes the workspace's next tag id (id_counters), and inserts it
 * unless its project is unknown or its name taken in its scope. The unique indexes decide the name:
 * of two creates of "Bug" and "bug" at once, the second waits for the first and then inserts nothing.
 */
export const CREATE_TAG = writeStatement<CreateTagParams, CreatedTagRow>('create_tag', {
  reads: {
    project: `
      SELECT :projectId::text IS NULL
             OR EXISTS (SELECT 1 FROM projects p WHERE p.team_id = :teamId AND p.id = :projectId::text) AS found`,
  },
  plan: `
    SELECT :teamId::text AS team_id, :projectId::text AS project_id, :name::text AS name, :slug::text AS slug,
           :color::text AS color
      FROM project WHERE found`,
  changes: {
    allocated: allocateIds('tag', '(SELECT count(*) FROM planned)'),
    inserted: `
      INSERT INTO tags AS t (team_id, id, project_id, name, slug, color)
      SELECT n.team_id, k.first_id, n.project_id, n.name, n.slug, n.color FROM planned n, allocated k
      ON CONFLICT DO NOTHING
      RETURNING t.*`,
  },
  result: `
    SELECT (SELECT found FROM project) AS project_found,
           EXISTS (SELECT FROM planned) AND NOT EXISTS (SELECT FROM inserted) AS taken, v.*
      FROM (SELECT) one LEFT JOIN (SELECT ${TAG_VIEW('t')} FROM inserted t) v ON true`,
  keep: { status: 201, succeeded: 'r.id IS NOT NULL' },
  event: `
    SELECT 'tag.created' AS type, 'tag' AS resource_type, r.id AS resource_id, :actor::jsonb AS actor,
           to_jsonb(r) AS resource, NULL::jsonb AS previous
      FROM result r WHERE r.id IS NOT NULL`,
});

/** A tag update: the fields it sets (null keeps a field). */
export interface UpdateTagParams extends TagKey {
  callerId: string;
  actor: string;
  name: string | null;
  slug: string | null;
  color: string | null;
}

/** The answer of UPDATE_TAG: the tag as written, and whether its new name was taken. */
export interface UpdatedTagRow extends TagRow {
  taken: boolean;
}

/**
 * A tag update in one statement: locks the row, writes only when a field really changes and the new
 * name is not another tag's in the same scope (ignoring case), adds one to the version, and announces
 * tag.updated with the values it changed. A rename racing another to the same name meets the unique
 * index, which the service answers as the taken name it is.
 */
export const UPDATE_TAG = writeStatement<UpdateTagParams, UpdatedTagRow>('update_tag', {
  target: `SELECT t AS tag FROM tags t WHERE t.team_id = :teamId AND t.id = :tagId FOR NO KEY UPDATE`,
  plan: `
    SELECT (x.tag).id, COALESCE(:name::text, (x.tag).name) AS name, COALESCE(:slug::text, (x.tag).slug) AS slug,
           COALESCE(:color::text, (x.tag).color) AS color,
           EXISTS (SELECT 1 FROM tags o
                    WHERE o.team_id = :teamId AND o.id <> (x.tag).id
                      AND o.project_id IS NOT DISTINCT FROM (x.tag).project_id
                      AND ${NAME_KEY('o')} = ${CASE_KEY(':name::text')}) AS taken
      FROM target x`,
  changes: {
    changed: `
      UPDATE tags t SET name = n.name, slug = n.slug, color = n.color, version = t.version + 1
        FROM planned n
       WHERE t.team_id = :teamId AND t.id = n.id AND NOT n.taken
         AND (n.name, n.slug, n.color) IS DISTINCT FROM (t.name, t.slug, t.color)
      RETURNING t AS tag`,
    written: `
      SELECT tag FROM changed
      UNION ALL
      SELECT tag FROM target WHERE NOT EXISTS (SELECT 1 FROM changed)`,
  },
  result: `
    SELECT ${TAG_VIEW('t')}, COALESCE((SELECT taken FROM planned), false) AS taken
      FROM (SELECT (w.tag).* FROM written w) t`,
  keep: { status: 200, succeeded: 'NOT r.taken' },
  event: `
    SELECT 'tag.updated' AS type, 'tag' AS resource_type, r.id AS resource_id, :actor::jsonb AS actor,
           to_jsonb(r) AS resource,
           ${PREVIOUS_VALUES('(SELECT to_jsonb(x.tag) FROM target x)', 'SELECT to_jsonb(c.tag) FROM changed c')}
             AS previous
      FROM result r WHERE EXISTS (SELECT 1 FROM changed)`,
});

/** A tag deletion: who deletes which tag. */
export interface DeleteTagParams extends TagKey {
  callerId: string;
  actor: string;
}

/** The answer of DELETE_TAG: whether it was deleted, and the cards it left. */
export interface DeletedTagRow {
  deleted: boolean;
  card_ids: string[];
}

/**
 * Deletes a tag in one statement, run under the tag's FOR UPDATE lock (LOCK_TAG_FOR_DELETE), so no
 * attach adds it to a card meanwhile: takes it off every card and moves each card's version, deletes
 * it, retires its id, and announces tag.deleted with the cards it left. Attaches and removals take
 * their tags before their card, as this does, so they never wait on it in a circle; two deletions of
 * tags on the same cards may, and the deadlock's loser runs again (WriteSequence, retryOnConflict).
 */
export const DELETE_TAG = writeStatement<DeleteTagParams, DeletedTagRow>('delete_tag', {
  target: `SELECT t.team_id, t.id FROM tags t WHERE t.team_id = :teamId AND t.id = :tagId FOR UPDATE`,
  plan: `SELECT x.team_id, x.id, now() AS now FROM target x`,
  changes: {
    unlinked: `
      DELETE FROM card_tags n USING planned p
       WHERE n.team_id = :teamId AND n.tag_id = p.id
      RETURNING n.card_id`,
    stamped: `
      UPDATE cards c SET time_updated = p.now, updated_by = :actor::jsonb, version = c.version + 1
        FROM planned p
       WHERE c.team_id = :teamId AND c.id IN (SELECT card_id FROM unlinked)`,
    deleted: `
      DELETE FROM tags t USING planned p WHERE t.team_id = :teamId AND t.id = p.id
      RETURNING t.id`,
    retired: retireIds('tag', 'deleted'),
  },
  result: `
    SELECT EXISTS (SELECT FROM deleted) AS deleted,
           ARRAY(SELECT card_id::text FROM unlinked ORDER BY card_id) AS card_ids`,
  keep: { status: 204, succeeded: 'r.deleted' },
  event: `
    SELECT 'tag.deleted' AS type, 'tag' AS resource_type, d.id::text AS resource_id, :actor::jsonb AS actor,
           jsonb_build_object('tag_id', d.id::text, 'card_ids', to_jsonb(r.card_ids)) AS resource,
           NULL::jsonb AS previous
      FROM deleted d, result r`,
});
