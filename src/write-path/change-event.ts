/**
 * One event of a write, as the write records it (write-transaction.ts): stored in the outbox in the write's
 * transaction, delivered to the workspace's webhooks that subscribe to its type.
 */
export interface ChangeEvent {
  type: string;
  resource_type: string;
  resource_id: string;
  /** The resource as the change left it (or what the event says of it, for a deletion). */
  resource: object;
  /** The stored values the change replaced, only those it changed (previousValues); null for none. */
  previous: Record<string, unknown> | null;
}

/** The values of `before` that differ in `after`, and only those, from which a renderer works out `changed`. */
export function previousValues(before: object, after: object): Record<string, unknown> {
  const now = after as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(before).filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(now[key])),
  );
}
