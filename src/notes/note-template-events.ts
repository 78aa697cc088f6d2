import { changedFields, EventRenderers, valuesBefore } from '../webhooks/event-payload';
import { TemplateRow, toNoteTemplate } from './note-template-queries';
import { toNoteTemplateView } from './note-template.view';

type StoredTemplateRow = Omit<TemplateRow, 'time_created' | 'time_updated'> & {
  time_created: string;
  time_updated: string;
};

function templateView(row: StoredTemplateRow): Record<string, unknown> {
  const template = toNoteTemplate({
    ...row,
    time_created: new Date(row.time_created),
    time_updated: new Date(row.time_updated),
  });
  const { is_favourited: _perCaller, ...view } = toNoteTemplateView(template, false);
  return view;
}

/** The fields a template update may change. */
const TEMPLATE_FIELDS = ['title', 'context', 'sections', 'icon', 'ai_actions', 'is_shared'] as const;

/** The bodies of the note template events, for the app's EventRenderers (src/event-renderers.ts). */
export const NOTE_TEMPLATE_EVENT_RENDERERS = {
  'note_template.updated': (event) => {
    const now = templateView(event.resource as unknown as StoredTemplateRow);
    const before = templateView({
      ...event.resource,
      ...valuesBefore(event.previous, TEMPLATE_FIELDS),
    } as StoredTemplateRow);
    return { changed: changedFields(before, now), note_template: now };
  },
  'note_template.created': (event) => ({
    note_template: templateView(event.resource as unknown as StoredTemplateRow),
  }),
  'note_template.deleted': (event) => ({ note_template_id: event.resource.note_template_id }),
} satisfies Pick<EventRenderers, 'note_template.updated' | 'note_template.created' | 'note_template.deleted'>;
