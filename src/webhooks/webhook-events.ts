/** The event types a webhook may subscribe to; `*` subscribes to all, present and future. */
export const EVENT_TYPES = [
  'note_template.updated',
  'page.updated',
  'page.archived',
  'page.unarchived',
  'card.tags_added',
  'page.created',
  'page.deleted',
  'note_template.created',
  'note_template.deleted',
  'card.tags_removed',
  'tag.created',
  'tag.updated',
  'tag.deleted',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export const ALL_EVENTS = '*';
