import { CASE_KEY } from '../database/case-key';
import { statement } from '../database/statement';
import { insertedRow, writeStatement } from '../write-path/write-statement';
import { TEMPLATE_VIEW, TemplateKey, TemplateRow } from './note-template-queries';

/** A new template's fields, as stored (sections and icon as JSON text). */
export interface CreateTemplateParams {
  teamId: string;
  callerId: string;
  actor: string;
  title: string;
  context: string;
  sections: string;
  icon: string | null;
  aiActions: boolean;
  isShared: boolean;
}

/**
 * A template comes into being, owned by its caller, under a fresh random id (32 hex digits: the
 * template id shape, and never one the workspace used), announced with its row as read back.
 */
export const CREATE_TEMPLATE = writeStatement<CreateTemplateParams, TemplateRow>('create_template', {
  plan: `SELECT replace(gen_random_uuid()::text, '-', '') AS id, now() AS now`,
  changes: {
    created: `
      INSERT INTO note_templates AS t (team_id, id, owner_id, title, context, sections, ai_actions, is_shared, icon,
                                       created_by, updated_by, time_created, time_updated)
      SELECT :teamId, n.id, :callerId, :title, :context, :sections::jsonb, :aiActions, :isShared, :icon::jsonb,
             :actor::jsonb, :actor::jsonb, n.now, n.now
        FROM planned n
      RETURNING ${insertedRow('t', 'note_templates')} AS template`,
  },
  result: `SELECT ${TEMPLATE_VIEW} FROM (SELECT (c.template).* FROM created c) t`,
  keep: { status: 201 },
  event: `
    SELECT 'note_template.created' AS type, 'note_template' AS resource_type, r.id AS resource_id,
           :actor::jsonb AS actor, to_jsonb(r) AS resource, NULL::jsonb AS previous
      FROM result r`,
});

/** What a delete found: the template's owner (no row: no such template) and whether it went. */
export interface DeletedTemplateRow {
  owner_id: string | null;
  deleted: boolean;
}

/**
 * A template goes, when the caller owns it (its favourites go with it; notes made with it keep their
 * text), announced by id.
 */
export const DELETE_TEMPLATE = writeStatement<TemplateKey & { actor: string }, DeletedTemplateRow>('delete_template', {
  target: `SELECT t.team_id, t.id, t.owner_id FROM note_templates t
              WHERE t.team_id = :teamId AND t.id = :templateId FOR UPDATE`,
  plan: `SELECT x.id FROM target x WHERE x.owner_id = :callerId::text`,
  changes: {
    deleted: `DELETE FROM note_templates t USING planned d WHERE t.team_id = :teamId AND t.id = d.id RETURNING t.id`,
  },
  result: `SELECT x.owner_id, EXISTS (SELECT 1 FROM deleted) AS deleted FROM target x`,
  keep: { status: 204, succeeded: 'r.deleted' },
  event: `
      SELECT 'note_template.deleted' AS type, 'note_template' AS resource_type, d.id AS resource_id,
             :actor::jsonb AS actor, jsonb_build_object('note_template_id', d.id) AS resource, NULL::jsonb AS previous
        FROM deleted d`,
});

/** Where a template list resumes: after this (owned, lower-cased title, id); all null for the first answer. */
export interface ListTemplatesParams {
  teamId: string;
  callerId: string;
  afterOwned: boolean | null;
  afterTitle: string | null;
  afterId: string | null;
  /** One more than an answer holds, to tell whether more follow. */
  take: number;
}

/** A listed template, with its place in the list's order. */
export interface ListedTemplateRow extends TemplateRow {
  owned: boolean;
  title_key: string;
}

/**
 * The templates a caller may read (their own, the shared, the built-in), built-in first, then by
 * title ignoring case (CASE_KEY: by Unicode letter, in code point order, the same on every database),
 * then id. A workspace holds few templates; the keyset still never skips or repeats one.
 */
export const LIST_TEMPLATES = statement<ListTemplatesParams, ListedTemplateRow>(
  'list_templates',
  `SELECT ${TEMPLATE_VIEW}, t.owned, t.title_key
     FROM (SELECT t.*, t.owner_id IS NOT NULL AS owned, ${CASE_KEY('t.title')} AS title_key
             FROM note_templates t
            WHERE t.team_id = :teamId AND (t.owner_id IS NULL OR t.is_shared OR t.owner_id = :callerId)) t
    WHERE :afterOwned::boolean IS NULL
       OR (t.owned, t.title_key, t.id COLLATE "C")
          > (:afterOwned, :afterTitle::text COLLATE "C", :afterId::text COLLATE "C")
    ORDER BY t.owned, t.title_key, t.id COLLATE "C"
    LIMIT :take`,
);
