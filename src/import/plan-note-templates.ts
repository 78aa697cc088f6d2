import { ChildTableSpec, replaceChildren, Statement, TableSpec, upsert } from './bulk-statements';
import { NoteTemplateEntry } from './dto/note-template-entry.dto';
import { importStamps } from './import-actor';
import { childRows, Listed, parentRows } from './listed-document';
import { References } from './references';

const NOTE_TEMPLATES: TableSpec = {
  table: 'note_templates',
  key: { team_id: 'text', id: 'text' },
  fields: {
    owner_id: 'text',
    title: 'text',
    context: 'text',
    sections: 'jsonb',
    ai_actions: 'boolean',
    is_shared: 'boolean',
    icon: 'jsonb',
  },
  stamped: true,
};

const FAVOURITES: ChildTableSpec = {
  table: 'note_template_favourites',
  key: { team_id: 'text', template_id: 'text', user_id: 'text' },
  parent: ['team_id', 'template_id'],
};

/** Note templates (owner_id null: built-in) and who favourited each. */
export function planNoteTemplates(templates: Listed<NoteTemplateEntry>[], refs: References): Statement[] {
  for (const { entry, label } of templates) {
    refs.workspace(label, entry.team_id);
    if (entry.owner_id) refs.member(label, entry.team_id, entry.owner_id, 'owner_id');
    for (const userId of entry.favourited_by ?? []) refs.member(label, entry.team_id, userId, 'favourited_by');
  }
  const rows = templates.map(({ entry, label }) => ({
    entry: label,
    team_id: entry.team_id,
    id: entry.id,
    owner_id: entry.owner_id ?? null,
    title: entry.title,
    context: entry.context ?? '',
    sections: (entry.sections ?? []).map(({ title, description }) => ({ title, description: description ?? '' })),
    ai_actions: entry.ai_actions ?? false,
    is_shared: entry.is_shared ?? false,
    icon: entry.icon ?? null,
    ...importStamps(entry.owner_id ?? null),
  }));
  const favourites = childRows(
    templates,
    'template_id',
    (t) => t.favourited_by,
    (userId) => ({ user_id: userId }),
  );
  return [
    upsert(NOTE_TEMPLATES, rows),
    ...replaceChildren(FAVOURITES, parentRows(templates, 'template_id'), favourites),
  ];
}
