import { statement } from '../database/statement';
import { PREVIOUS_VALUES } from '../write-path/outbox-sql';
import { writeStatement } from '../write-path/write-statement';
import { NoteTemplate } from './note-template.entity';

/** A template as one caller sees it, with whether that caller favourited it. */
export interface TemplateRow {
  team_id: string;
  id: string;
  owner_id: string | null;
  title: string;
  context: string;
  sections: NoteTemplate['sections'];
  ai_actions: boolean;
  is_shared: boolean;
  icon: NoteTemplate['icon'];
  created_by: NoteTemplate['createdBy'];
  updated_by: NoteTemplate['updatedBy'];
  // Dates from pg; ISO text in a kept answer (a jsonb copy of the row).
  time_created: Date | string;
  time_updated: Date | string;
  /** Counts the template's changes (migration 0007); its ETag. */
  version: string;
  is_favourited: boolean;
}

/** The columns of a TemplateRow, from template `t`, for the caller. */
export const TEMPLATE_VIEW = `
  t.team_id, t.id, t.owner_id, t.title, t.context, t.sections, t.ai_actions, t.is_shared, t.icon,
  t.created_by, t.updated_by, t.time_created, t.time_updated, t.version::text AS version,
  EXISTS (SELECT 1 FROM note_template_favourites f
           WHERE f.team_id = :teamId AND f.template_id = t.id AND f.user_id = :callerId) AS is_favourited`;

const READ = `SELECT ${TEMPLATE_VIEW} FROM note_templates t WHERE t.team_id = :teamId AND t.id = :templateId`;

/** Which template, for whom. */
export interface TemplateKey {
  teamId: string;
  templateId: string;
  callerId: string;
}

export const READ_TEMPLATE = statement<TemplateKey, TemplateRow>('read_template', READ);

/** READ_TEMPLATE with the row locked for the rest of the transaction: a conditional write's first step. */
export const LOCK_TEMPLATE = statement<TemplateKey, TemplateRow>('lock_template', `${READ} FOR NO KEY UPDATE OF t`);

/** A template update: who writes, and the fields it sets (null keeps a field). */
export interface WriteTemplateParams extends TemplateKey {
  actor: string;
  title: string | null;
  context: string | null;
  sections: string | null;
  icon: string | null;
  aiActions: boolean | null;
  isShared: boolean | null;
}

/**
 * A template update in one statement, atomic on its own: locks the row (NO KEY UPDATE: enough
 * against concurrent updates, and favourites can still reference it), writes only when the caller
 * owns it and something really changes (stamped with who and the database's clock, so time_updated
 * never precedes time_created), and reads it back. Concurrent patches of different fields take turns
 * on the lock, so neither undoes the other. A real change adds one to the version, and is announced to
 * the workspace's webhooks by the same statement: the row read back and the fields it changed, as they
 * were.
 */
export const WRITE_TEMPLATE = writeStatement<WriteTemplateParams, TemplateRow>('write_template', {
  target: `SELECT t AS template FROM note_templates t WHERE t.team_id = :teamId AND t.id = :templateId
              FOR NO KEY UPDATE`,
  plan: `
    SELECT (x.template).team_id, (x.template).id,
           COALESCE(:title::text, (x.template).title) AS title,
           COALESCE(:context::text, (x.template).context) AS context,
           COALESCE(:sections::jsonb, (x.template).sections) AS sections,
           COALESCE(:icon::jsonb, (x.template).icon) AS icon,
           COALESCE(:aiActions::boolean, (x.template).ai_actions) AS ai_actions,
           COALESCE(:isShared::boolean, (x.template).is_shared) AS is_shared,
           now() AS now
      FROM target x
     WHERE (x.template).owner_id = :callerId::text`,
  changes: {
    changed: `
      UPDATE note_templates t
         SET title = n.title, context = n.context, sections = n.sections, icon = n.icon, ai_actions = n.ai_actions,
             is_shared = n.is_shared, updated_by = :actor::jsonb, time_updated = n.now, version = t.version + 1
        FROM planned n
       WHERE t.team_id = :teamId AND t.id = n.id
         AND (n.title, n.context, n.sections, n.icon, n.ai_actions, n.is_shared)
             IS DISTINCT FROM (t.title, t.context, t.sections, t.icon, t.ai_actions, t.is_shared)
      RETURNING t AS template`,
    written: `
      SELECT template FROM changed
      UNION ALL
      SELECT template FROM target WHERE NOT EXISTS (SELECT 1 FROM changed)`,
  },
  result: `SELECT ${TEMPLATE_VIEW} FROM (SELECT (w.template).* FROM written w) t`,
  keep: { status: 200, succeeded: 'r.owner_id = :callerId' },
  event: `
    SELECT 'note_template.updated' AS type, 'note_template' AS resource_type, r.id AS resource_id,
           :actor::jsonb AS actor, to_jsonb(r) AS resource,
           ${PREVIOUS_VALUES(
             '(SELECT to_jsonb(x.template) FROM target x)',
             'SELECT to_jsonb(c.template) FROM changed c',
           )} AS previous
      FROM result r WHERE EXISTS (SELECT 1 FROM changed)`,
});

export function toNoteTemplate(row: TemplateRow): NoteTemplate {
  return {
    teamId: row.team_id,
    id: row.id,
    ownerId: row.owner_id,
    title: row.title,
    context: row.context,
    sections: row.sections,
    aiActions: row.ai_actions,
    isShared: row.is_shared,
    icon: row.icon,
    createdBy: row.created_by,
    updatedBy: row.updated_by,
    timeCreated: new Date(row.time_created),
    timeUpdated: new Date(row.time_updated),
  };
}
