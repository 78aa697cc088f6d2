import { changedFields, EventRenderers, valuesBefore } from '../webhooks/event-payload';
import { TagRow } from './tag-queries';
import { toTagView } from './tag.view';

/** The fields a tag update may change. */
const TAG_FIELDS = ['name', 'slug', 'color'] as const;

/** The bodies of the tag events, for the app's EventRenderers (src/event-renderers.ts). */
export const TAG_EVENT_RENDERERS = {
  'tag.created': (event) => ({ tag: toTagView(event.resource as unknown as TagRow) }),
  'tag.updated': (event) => {
    const now = toTagView(event.resource as unknown as TagRow);
    const before = toTagView({ ...event.resource, ...valuesBefore(event.previous, TAG_FIELDS) } as unknown as TagRow);
    return { changed: changedFields({ ...before }, { ...now }), tag: now };
  },
  'tag.deleted': (event) => ({ tag_id: event.resource.tag_id, card_ids: event.resource.card_ids }),
} satisfies Pick<EventRenderers, 'tag.created' | 'tag.updated' | 'tag.deleted'>;
