/**
 * Checked by `npm run typecheck`, never run (jest's testMatch leaves it out): the event renderers' registry
 * is complete, and a registry or an event type without a renderer does not compile. A @ts-expect-error
 * line that compiles is itself an error, so each case below must fail for the reason it names.
 */
import { CARD_EVENT_RENDERERS } from '../../src/cards/card-events';
import { ALL_EVENT_RENDERERS } from '../../src/event-renderers';
import { NOTE_TEMPLATE_EVENT_RENDERERS } from '../../src/notes/note-template-events';
import { PAGE_EVENT_RENDERERS } from '../../src/pages/page-events';
import { EventRenderers, RenderersFor } from '../../src/webhooks/event-payload';
import { EventType } from '../../src/webhooks/webhook-events';

// The app's registry renders every event type.
export const _complete: EventRenderers = ALL_EVENT_RENDERERS;

// A registry that lacks one event type's renderer.
// @ts-expect-error card.tags_added has no renderer
export const _lacking: EventRenderers = { ...PAGE_EVENT_RENDERERS, ...NOTE_TEMPLATE_EVENT_RENDERERS };

// A new event type added to the union, with no renderer written for it.
type WithNew = EventType | 'page.purged';
// @ts-expect-error page.purged has no renderer
export const _withNew: RenderersFor<WithNew> = ALL_EVENT_RENDERERS;

// A renderer registered under another event type: each renderer is given events of its own type only.
export const _misfiled: EventRenderers = {
  ...ALL_EVENT_RENDERERS,
  // @ts-expect-error the card renderer does not render page.updated events
  'page.updated': CARD_EVENT_RENDERERS['card.tags_added'],
};
