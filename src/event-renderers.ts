import { CARD_EVENT_RENDERERS } from './cards/card-events';
import { NOTE_TEMPLATE_EVENT_RENDERERS } from './notes/note-template-events';
import { PAGE_EVENT_RENDERERS } from './pages/page-events';
import { TAG_EVENT_RENDERERS } from './tags/tag-events';
import { EventRenderers } from './webhooks/event-payload';

/** The renderer of every event type, each from the feature that owns it; AppModule gives it to WebhooksModule. */
export const ALL_EVENT_RENDERERS = {
  ...PAGE_EVENT_RENDERERS,
  ...NOTE_TEMPLATE_EVENT_RENDERERS,
  ...CARD_EVENT_RENDERERS,
  ...TAG_EVENT_RENDERERS,
} satisfies EventRenderers;
