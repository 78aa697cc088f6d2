import { statement } from '../database/statement';
import { KeyParameters, KeyParams } from '../safe-writes/idempotency-queries';
import { announcedWrite, PREVIOUS_VALUES } from '../webhooks/outbox';
import { NoteTemplate } from './note-template.entity';

/** Where the write statements below have their idempotency key. */
const KEY: KeyParameters = { key: '$11', claim: '$12' };

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

/** The columns of a TemplateRow, from template `t`, for caller $3. */
const TEMPLATE_VIEW = `
  t.team_id, t.id, t.owner_id, t.title, t.context, t.sections, t.ai_actions, t.is_shared, t.icon,
  t.created_by, t.updated_by, t.time_created, t.time_updated, t.version::text AS version,
  EXISTS (SELECT 1 FROM note_template_favourites f
           WHERE f.team_id = t.team_id AND f.template_id = t.id AND f.user_id = $3) AS is_favourited`;

const READ = `SELECT ${TEMPLATE_VIEW} FROM note_templates t WHERE t.team_id = $1 AND t.id = $2`;

export const READ_TEMPLATE = statement<[teamId: string, templateId: string, callerId: string], TemplateRow>(
  'read_template',
  READ,
);

/** READ_TEMPLATE with the row locked for the rest of the transaction: a conditional write's first step. */
export const LOCK_TEMPLATE = statement<[teamId: string, templateId: string, callerId: string], TemplateRow>(
  'lock_template',
  `${READ} FOR NO KEY UPDATE OF t`,
);

export type WriteTemplateParams = [
  teamId: string,
  templateId: string,
  callerId: string,
  actor: string,
  // null keeps a field.
  title: string | null,
  context: string | null,
  sections: string | null,
  icon: string | null,
  aiActions: boolean | null,
  isShared: boolean | null,
  ...KeyParams,
];

/** A row of WRITE_TEMPLATE: with a key, false when this request no longer holds it (nothing was written). */
export type WrittenTemplateRow = TemplateRow & { holds_key: boolean };

/**
 * A template update in one statement, atomic on its own: locks the row (NO KEY UPDATE: enough
 * against concurrent updates, and favourites can still reference it), writes only when the caller
 * owns it and something really changes (stamped with who and the database's clock, so time_updated
 * never precedes time_created), and reads it back. Concurrent patches of different fields take turns
 * on the lock, so neither undoes the other. A real change adds one to the version, and is announced to
 * the workspace's webhooks by the same statement: the row read back and the fields it changed, as they
 * were (its forms, announcer.ts: the quiet one writes nothing in a workspace with webhooks). With an
 * idempotency key, it writes only while the request holds the key, and keeps its answer when it succeeded.
 */
export const WRITE_TEMPLATE = announcedWrite<WriteTemplateParams, WrittenTemplateRow>(
  'write_template',
  KEY,
  (outbox, key) => `WITH target AS MATERIALIZED (
     SELECT t AS template FROM note_templates t WHERE t.team_id = $1 AND t.id = $2 FOR NO KEY UPDATE
   ), ${key.held('target')}
   planned AS MATERIALIZED (
     SELECT (x.template).team_id, (x.template).id,
            COALESCE($5::text, (x.template).title) AS title,
            COALESCE($6::text, (x.template).context) AS context,
            COALESCE($7::jsonb, (x.template).sections) AS sections,
            COALESCE($8::jsonb, (x.template).icon) AS icon,
            COALESCE($9::boolean, (x.template).ai_actions) AS ai_actions,
            COALESCE($10::boolean, (x.template).is_shared) AS is_shared
       FROM target x
      WHERE (x.template).owner_id = $3::text AND ${key.holds} AND ${outbox.writes}
   ), changed AS (
     UPDATE note_templates t
        SET title = n.title, context = n.context, sections = n.sections, icon = n.icon, ai_actions = n.ai_actions,
            is_shared = n.is_shared, updated_by = $4::jsonb, time_updated = now(), version = t.version + 1
       FROM planned n
      WHERE t.team_id = n.team_id AND t.id = n.id
        AND (n.title, n.context, n.sections, n.icon, n.ai_actions, n.is_shared)
            IS DISTINCT FROM (t.title, t.context, t.sections, t.icon, t.ai_actions, t.is_shared)
     RETURNING t AS template
   ), written AS (
     SELECT template FROM changed
     UNION ALL
     SELECT template FROM target WHERE NOT EXISTS (SELECT 1 FROM changed)
   ), result AS (
     SELECT ${TEMPLATE_VIEW}, ${key.holds} AS holds_key, ${outbox.subscribed} AS subscribed
       FROM (SELECT (w.template).* FROM written w) t
   )${key.keep(200, 'to_jsonb(r)', 'r.owner_id = $3 AND r.holds_key AND NOT r.subscribed')}
   ${outbox.announce(
     `SELECT 'note_template.updated' AS type, 'note_template' AS resource_type, r.id AS resource_id,
             $4::jsonb AS actor, to_jsonb(r) AS resource,
             ${PREVIOUS_VALUES(
               '(SELECT to_jsonb(x.template) FROM target x)',
               'SELECT to_jsonb(c.template) FROM changed c',
             )} AS previous
        FROM result r WHERE EXISTS (SELECT 1 FROM changed)`,
   )}
   SELECT * FROM result`,
);

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
