/**
 * The transactional outbox, as CTEs a write statement adds to itself: `events` is a query of at
 * most one row (type, resource_type, resource_id, actor, resource, previous) that yields a row
 * only when the statement really changed something. The event is stored, and one delivery queued
 * per webhook of workspace `team` that subscribes to its type, by the same statement as the change:
 * committed together or not at all. Without a subscribed webhook in the workspace nothing is
 * inserted (one probe of the webhooks key decides).
 */
export const ANNOUNCE = (team: string, events: string) => `
  announced AS (
    INSERT INTO webhook_events (team_id, type, resource_type, resource_id, actor, resource, previous)
    SELECT ${team}, e.type, e.resource_type, e.resource_id, e.actor, e.resource, e.previous
      FROM (${events}) e
     WHERE EXISTS (SELECT 1 FROM webhooks w WHERE w.team_id = ${team} AND w.events && ARRAY[e.type, '*'])
    RETURNING team_id, id, type, resource_type, resource_id
  ), fanned_out AS (
    INSERT INTO webhook_deliveries (team_id, webhook_id, event_id, resource_key)
    SELECT a.team_id, w.id, a.id, a.resource_type || ':' || a.resource_id
      FROM announced a JOIN webhooks w ON w.team_id = a.team_id AND w.events && ARRAY[a.type, '*']
  )`;
