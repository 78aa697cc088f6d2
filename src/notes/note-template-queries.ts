import { NoteTemplate } from './note-template.entity';
import { NoteTemplateChanges } from './note-template-changes';

/**
 * One template as one caller sees it, with whether that caller favourited it. $1 team_id,
 * $2 template id, $3 caller user_id. Append FOR_UPDATE to lock the row for the transaction.
 */
export const READ_TEMPLATE = `
  SELECT t.team_id, t.id, t.owner_id, t.title, t.context, t.sections, t.ai_actions, t.is_shared, t.icon,
         t.created_by, t.updated_by, t.time_created, t.time_updated,
         EXISTS (SELECT 1 FROM note_template_favourites f WHERE f.team_id = t.team_id AND f.template_id = t.id AND f.user_id = $3) AS is_favourited
    FROM note_templates t
   WHERE t.team_id = $1 AND t.id = $2`;

/** NO KEY UPDATE: enough against concurrent updates, and favourites can still reference the row. */
export const FOR_UPDATE = ' FOR NO KEY UPDATE OF t';

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
  time_created: Date;
  time_updated: Date;
  is_favourited: boolean;
}

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
    timeCreated: row.time_created,
    timeUpdated: row.time_updated,
  };
}

/** The column of each field a patch may change; jsonb values go as JSON text (pg would send an array as a PostgreSQL array). */
const COLUMNS: { [K in keyof Required<NoteTemplateChanges>]: { column: string; value: (v: NoteTemplateChanges[K]) => unknown } } = {
  title: { column: 'title', value: (v) => v },
  context: { column: 'context', value: (v) => v },
  sections: { column: 'sections', value: (v) => JSON.stringify(v) },
  icon: { column: 'icon', value: (v) => (v === null ? null : JSON.stringify(v)) },
  aiActions: { column: 'ai_actions', value: (v) => v },
  isShared: { column: 'is_shared', value: (v) => v },
};

/**
 * The UPDATE that writes `changes` (at least one field), the updater and the database's clock (so
 * time_updated never precedes time_created), returning the new time_updated.
 */
export function updateTemplate(teamId: string, templateId: string, changes: NoteTemplateChanges, updatedBy: object): { sql: string; params: unknown[] } {
  const params: unknown[] = [teamId, templateId];
  const assignments = (Object.keys(changes) as Array<keyof NoteTemplateChanges>).map((field) => {
    const { column, value } = COLUMNS[field];
    params.push((value as (v: unknown) => unknown)(changes[field]));
    return `${column} = $${params.length}`;
  });
  params.push(JSON.stringify(updatedBy));
  assignments.push(`updated_by = $${params.length}`, 'time_updated = now()');
  return {
    sql: `UPDATE note_templates SET ${assignments.join(', ')} WHERE team_id = $1 AND id = $2 RETURNING time_updated`,
    params,
  };
}
