import { EventRenderers } from '../webhooks/event-payload';

/** The bodies of the card events, for the app's EventRenderers (src/event-renderers.ts). */
export const CARD_EVENT_RENDERERS = {
  'card.tags_added': (event) => ({ card_id: event.resource.card_id, tag_ids: event.resource.tag_ids }),
  'card.tags_removed': (event) => ({ card_id: event.resource.card_id, tag_ids: event.resource.tag_ids }),
} satisfies Pick<EventRenderers, 'card.tags_added' | 'card.tags_removed'>;
