import { Actor } from '../common/actor';
import { statement } from '../database/statement';
import { KEYED, KeyParams } from '../safe-writes/idempotency-queries';
import { stimeSql } from '../database/stime';
import { StoredEvent } from './event-payload';

/** CREATE_WEBHOOK's idempotency key parts: the key at $8, the claim at $9, the caller at $10. */
const KEY = KEYED({ key: '$8', claim: '$9', caller: '$10' });

/** A webhook as its routes show it (the secret is never read back for them). */
export interface WebhookRow {
  id: string;
  url: string;
  events: string[];
  description: string;
  time_created: number;
  user: Actor;
}

const WEBHOOK_VIEW = `
  w.id::text, w.url, w.events, w.description, ${stimeSql('w.time_created')}::float8 AS time_created,
  w.created_by AS "user"`;

/** A row of CREATE_WEBHOOK: the webhook (its id null when the workspace had $7 already) and its sealed secret. */
export interface CreatedWebhookRow extends Omit<WebhookRow, 'id'> {
  id: string | null;
  sealed_secret: string;
  /** With a key, false when this request no longer holds it: nothing was created. */
  holds_key: boolean;
}

/**
 * The first statement of a creation: the workspace's lock on its list of webhooks, so that CREATE_WEBHOOK
 * (a later statement of the transaction, whose snapshot sees the creations committed before it) counts
 * them under it and two creations never both take the last place.
 */
export const LOCK_WEBHOOK_LIST = statement<[teamId: string], { locked: string }>(
  'lock_webhook_list',
  `SELECT pg_advisory_xact_lock(hashtextextended($1 || ':webhooks', 0))::text AS locked`,
);

/**
 * Creates a webhook unless the workspace already has $7 of them (under LOCK_WEBHOOK_LIST). With an
 * idempotency key, it creates only while the request holds the key, and keeps its answer (the secret
 * sealed, as stored) when it did.
 */
export const CREATE_WEBHOOK = statement<
  [
    teamId: string,
    url: string,
    events: string[],
    description: string,
    sealedSecret: string,
    actor: string,
    max: number,
    ...KeyParams,
    callerId: string,
  ],
  CreatedWebhookRow
>(
  'create_webhook',
  `WITH ${KEY.held()}
   created AS (
     INSERT INTO webhooks AS w (team_id, url, events, description, secret, created_by)
     SELECT $1, $2, $3::text[], $4, $5, $6::jsonb
      WHERE (SELECT count(*) FROM webhooks WHERE team_id = $1) < $7 AND ${KEY.holds}
     RETURNING ${WEBHOOK_VIEW}, w.secret AS sealed_secret
   ), result AS (
     SELECT c.*, ${KEY.holds} AS holds_key FROM (SELECT) one LEFT JOIN created c ON true
   )${KEY.keep(201, 'to_jsonb(r)', 'r.id IS NOT NULL AND r.holds_key')}
   SELECT * FROM result`,
);

export const LIST_WEBHOOKS = statement<[teamId: string], WebhookRow>(
  'list_webhooks',
  `SELECT ${WEBHOOK_VIEW} FROM webhooks w WHERE w.team_id = $1 ORDER BY w.id`,
);

export const READ_WEBHOOK = statement<[teamId: string, webhookId: string], WebhookRow>(
  'read_webhook',
  `SELECT ${WEBHOOK_VIEW} FROM webhooks w WHERE w.team_id = $1 AND w.id = $2`,
);

/**
 * Deletes a webhook. Its deliveries are never claimed again (the claim joins webhooks) and
 * housekeeping removes them; deleting them here would wait for an attempt in flight.
 */
export const DELETE_WEBHOOK = statement<[teamId: string, webhookId: string], { id: string }>(
  'delete_webhook',
  `DELETE FROM webhooks WHERE team_id = $1 AND id = $2 RETURNING id::text`,
);

/** One attempt in the deliveries log. */
export interface AttemptRow {
  id: string;
  type: string;
  attempt: number;
  status: number | null;
  time: number;
  next_attempt: number | null;
  outcome: 'delivered' | 'retrying' | 'given_up';
}

/** A webhook's attempts, newest first, at most $3. */
export const LIST_ATTEMPTS = statement<[teamId: string, webhookId: string, limit: number], AttemptRow>(
  'list_webhook_attempts',
  `SELECT a.event_id::text AS id, a.type, a.attempt, a.status, ${stimeSql('a.time')}::float8 AS time,
          ${stimeSql('a.next_attempt_at')}::float8 AS next_attempt, a.outcome
     FROM webhook_attempts a
    WHERE a.team_id = $1 AND a.webhook_id = $2
    ORDER BY a.time DESC, a.event_id DESC, a.attempt DESC
    LIMIT $3`,
);

/** A delivery claimed by a worker, with its webhook and its event. */
export interface ClaimedDelivery extends StoredEvent {
  /** Where its locked row is, for RECORD_ATTEMPTS: the row cannot move while the claim holds it. */
  ref: string;
  webhook_id: string;
  event_id: string;
  resource_key: string;
  attempts: number;
  url: string;
  secret: string;
}

/** Delivery `d` is pending in stream `s` (its webhook and resource). */
const PENDING_IN = (d: string, s: string) => `
  ${d}.team_id = ${s}.team_id AND ${d}.webhook_id = ${s}.webhook_id AND ${d}.resource_key = ${s}.resource_key
  AND ${d}.state = 'pending'`;

/** Joins stream `s` to its head: its earliest pending delivery (none, no row), found by its key. */
const HEAD = (s: string) => `
  CROSS JOIN LATERAL (
    SELECT h.ctid AS head FROM webhook_deliveries h
     WHERE ${PENDING_IN('h', s)}
     ORDER BY h.event_id
     LIMIT 1) h`;

/**
 * Claims a batch of due deliveries of one webhook, for the rest of the worker's transaction (which lasts
 * the attempts): at most $2, each the earliest pending delivery of its stream (webhook and resource), so
 * a later event of a resource waits until the earlier ones succeeded or were given up. The webhook is the
 * one whose earliest due stream is earliest, among those not in $1 (the webhooks this process is already
 * sending to) and not being sent to by another transaction: the first whose advisory lock it takes, so
 * one slow receiver holds one slot. The head deliveries are locked too (a process of an earlier version
 * locks only those), and a crash releases both for another process to retry. A due stream without a
 * pending delivery, which an earlier version's process can leave, counts for nothing (HEAD): otherwise
 * it would have its webhook chosen first, for nothing, at every claim, and no other webhook would be.
 * Each row is reached by its key: the LIMITs keep the planner from trading those lookups for a scan when
 * the statistics say the tables are empty.
 */
export const CLAIM_DELIVERIES = statement<[busyWebhookIds: string[], limit: number], ClaimedDelivery>(
  'claim_webhook_deliveries',
  `WITH due AS (
     SELECT w.team_id, w.id, w.url, w.secret
       FROM webhooks w
       CROSS JOIN LATERAL (
         SELECT s.next_attempt_at FROM webhook_streams s ${HEAD('s')}
          WHERE s.team_id = w.team_id AND s.webhook_id = w.id AND s.next_attempt_at <= now()
          ORDER BY s.next_attempt_at
          LIMIT 1) first
      WHERE w.id <> ALL ($1::bigint[])
      ORDER BY first.next_attempt_at
     OFFSET 0
   ), chosen AS MATERIALIZED (
     SELECT * FROM due WHERE pg_try_advisory_xact_lock(hashtextextended(team_id || ':webhook:' || id, 0)) LIMIT 1
   )
   SELECT d.ctid::text AS ref, d.team_id, d.webhook_id::text, d.event_id::text, d.resource_key, d.attempts,
          c.url, c.secret, e.type, e.actor, e.resource, e.previous, e.time_created AS event_time
     FROM chosen c
     CROSS JOIN LATERAL (
       SELECT h.head FROM webhook_streams s ${HEAD('s')}
        WHERE s.team_id = c.team_id AND s.webhook_id = c.id AND s.next_attempt_at <= now()
        ORDER BY s.next_attempt_at
        LIMIT $2) s
     JOIN webhook_deliveries d ON d.ctid = s.head
     CROSS JOIN LATERAL (
       SELECT e.type, e.actor, e.resource, e.previous, e.time_created FROM webhook_events e
        WHERE e.team_id = d.team_id AND e.id = d.event_id
        LIMIT 1) e
    WHERE d.state = 'pending'
      FOR UPDATE OF d SKIP LOCKED`,
);

/**
 * Records the attempts of a batch claimed by CLAIM_DELIVERIES (webhook $2 of workspace $1), each with
 * what follows from it: delivered; or retried after its delay (and its stream with it); or, when that
 * would be later than $9 ms after its event ($12), given up. A finished delivery makes its stream due for
 * the next one, or idle when none was queued after it: the stream's last event, read from the row this
 * statement locks, is what a fan-out committing meanwhile changes. Returns each event's outcome.
 *
 * Every row is reached by its own key, whatever the statistics say: the outbox tables grow from nothing
 * between two ANALYZEs, and a plan that believes them empty reads all of a webhook's rows (bench/README.md).
 * The deliveries by ctid ($11: the claim holds those rows, so they cannot move), the streams by key ($10),
 * and the events not at all (the claim read their times).
 */
export const RECORD_ATTEMPTS = statement<
  [
    teamId: string,
    webhookId: string,
    eventIds: string[],
    attempts: number[],
    succeeded: boolean[],
    statuses: Array<number | null>,
    retryDelaysMs: number[],
    types: string[],
    retryWindowMs: number,
    resourceKeys: string[],
    refs: string[],
    eventTimes: Date[],
  ],
  { event_id: string; outcome: AttemptRow['outcome'] }
>(
  'record_webhook_attempts',
  `WITH decided AS MATERIALIZED (
     SELECT a.*,
            CASE WHEN a.succeeded THEN 'delivered'
                 WHEN now() + a.delay_ms * interval '1 millisecond' > a.event_time + $9 * interval '1 millisecond'
                 THEN 'given_up'
                 ELSE 'retrying' END AS outcome,
            now() + a.delay_ms * interval '1 millisecond' AS next_at
       FROM unnest($3::bigint[], $4::int[], $5::boolean[], $6::int[], $7::float8[], $8::text[], $11::tid[],
                   $12::timestamptz[])
            AS a(event_id, attempt, succeeded, status, delay_ms, type, ref, event_time)
   ), updated AS (
     UPDATE webhook_deliveries d
        SET attempts = o.attempt,
            state = CASE o.outcome WHEN 'retrying' THEN 'pending' ELSE o.outcome END,
            next_attempt_at = CASE o.outcome WHEN 'retrying' THEN o.next_at ELSE d.next_attempt_at END,
            time_finished = CASE o.outcome WHEN 'retrying' THEN NULL ELSE now() END
       FROM decided o
      WHERE d.ctid = ANY ($11::tid[]) AND d.ctid = o.ref AND d.event_id = o.event_id
     RETURNING d.resource_key, d.event_id, o.outcome, o.next_at
   ), stream AS (
     UPDATE webhook_streams s
        SET next_attempt_at = CASE WHEN u.outcome = 'retrying' THEN u.next_at
                                   WHEN s.last_event_id = u.event_id THEN NULL
                                   ELSE now() END
       FROM updated u
      WHERE s.team_id = $1 AND s.webhook_id = $2 AND s.resource_key = ANY ($10::text[])
        AND s.resource_key = u.resource_key
   )
   INSERT INTO webhook_attempts (team_id, webhook_id, event_id, type, attempt, status, outcome, next_attempt_at)
   SELECT $1, $2, o.event_id, o.type, o.attempt, o.status, o.outcome, CASE o.outcome WHEN 'retrying' THEN o.next_at END
     FROM decided o
   RETURNING event_id::text, outcome`,
);

/**
 * Retention: finished deliveries, attempts and events older than $1 ms, idle streams, and what deleted
 * webhooks left behind; at most 10000 deliveries a run, never one in flight. It never waits for a
 * stream's row (a write waiting for it while holding another would deadlock): a locked one is left.
 */
export const TRIM_WEBHOOK_DATA = statement<
  [retentionMs: number],
  { deliveries: number; attempts: number; events: number }
>(
  'trim_webhook_data',
  `WITH cutoff AS MATERIALIZED (SELECT now() - $1 * interval '1 millisecond' AS at
   ), deliveries AS (
     DELETE FROM webhook_deliveries d
      WHERE (d.team_id, d.webhook_id, d.event_id) IN (
        SELECT x.team_id, x.webhook_id, x.event_id FROM webhook_deliveries x
         WHERE (x.state <> 'pending' AND x.time_finished < (SELECT at FROM cutoff))
            OR NOT EXISTS (SELECT 1 FROM webhooks w WHERE w.team_id = x.team_id AND w.id = x.webhook_id)
         LIMIT 10000
           FOR UPDATE SKIP LOCKED)
     RETURNING 1
   ), attempts AS (
     DELETE FROM webhook_attempts a
      WHERE a.time < (SELECT at FROM cutoff)
         OR NOT EXISTS (SELECT 1 FROM webhooks w WHERE w.team_id = a.team_id AND w.id = a.webhook_id)
     RETURNING 1
   ), streams AS (
     DELETE FROM webhook_streams s
      WHERE (s.team_id, s.webhook_id, s.resource_key) IN (
        SELECT x.team_id, x.webhook_id, x.resource_key FROM webhook_streams x
         WHERE x.next_attempt_at IS NULL
            OR NOT EXISTS (SELECT 1 FROM webhooks w WHERE w.team_id = x.team_id AND w.id = x.webhook_id)
           FOR UPDATE SKIP LOCKED)
   ), events AS (
     DELETE FROM webhook_events e
      WHERE e.time_created < (SELECT at FROM cutoff)
        AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d
                         WHERE d.team_id = e.team_id AND d.event_id = e.id AND d.state = 'pending')
     RETURNING 1
   )
   SELECT (SELECT count(*) FROM deliveries)::int AS deliveries, (SELECT count(*) FROM attempts)::int AS attempts,
          (SELECT count(*) FROM events)::int AS events`,
);

/** CTE `orphans`: per stream, pending deliveries with no due stream, and the last of their events. */
const ORPHANS = `
  orphans AS MATERIALIZED (
    SELECT d.team_id, d.webhook_id, d.resource_key, max(d.event_id) AS last_event_id
      FROM webhook_deliveries d
     WHERE d.state = 'pending'
       AND NOT EXISTS (SELECT 1 FROM webhook_streams s
                        WHERE s.team_id = d.team_id AND s.webhook_id = d.webhook_id
                          AND s.resource_key = d.resource_key AND s.next_attempt_at IS NOT NULL)
     GROUP BY d.team_id, d.webhook_id, d.resource_key
  )`;

/**
 * Housekeeping's two statements for pending deliveries that have no due stream: those a process of an
 * earlier version (which knew no streams) queued or finished during a rolling deploy. They only ever make
 * a stream due, which a claim checks again. The first creates missing streams in key order, as a fan-out
 * does; the second wakes idle ones, skipping any a write or a finishing delivery holds (the next run sees
 * it again): neither holds a row while it waits for another.
 */
export const CREATE_ORPHAN_STREAMS = statement<[], never>(
  'create_orphan_streams',
  `WITH ${ORPHANS}
   INSERT INTO webhook_streams (team_id, webhook_id, resource_key, next_attempt_at, last_event_id)
   SELECT team_id, webhook_id, resource_key, now(), last_event_id FROM orphans
    ORDER BY team_id, webhook_id, resource_key
   ON CONFLICT DO NOTHING`,
);

export const WAKE_ORPHAN_STREAMS = statement<[], never>(
  'wake_orphan_streams',
  `WITH ${ORPHANS}
   UPDATE webhook_streams s SET next_attempt_at = now(), last_event_id = GREATEST(s.last_event_id, x.last_event_id)
     FROM (SELECT i.team_id, i.webhook_id, i.resource_key, o.last_event_id
             FROM webhook_streams i JOIN orphans o USING (team_id, webhook_id, resource_key)
            WHERE i.next_attempt_at IS NULL
              FOR UPDATE OF i SKIP LOCKED) x
    WHERE s.team_id = x.team_id AND s.webhook_id = x.webhook_id AND s.resource_key = x.resource_key`,
);

/**
 * Housekeeping's statement for due streams with nothing pending, which a process of an earlier version
 * (which knew no streams) leaves when it finishes a stream's last delivery: every claim would read them
 * again. It makes them idle, except one whose row changed since the first read (xmin: a write queued a
 * delivery meanwhile, which the first read's snapshot does not show) or that a write holds (SKIP
 * LOCKED): the next run sees it again. A write that queues a delivery after this one idled its stream
 * makes the stream due again (one of an earlier version does not: CREATE and WAKE_ORPHAN_STREAMS do).
 */
export const IDLE_EMPTY_STREAMS = statement<[], never>(
  'idle_empty_streams',
  `WITH empty AS MATERIALIZED (
     SELECT s.team_id, s.webhook_id, s.resource_key, s.xmin AS row_version FROM webhook_streams s
      WHERE s.next_attempt_at IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE ${PENDING_IN('d', 's')})
   )
   UPDATE webhook_streams s SET next_attempt_at = NULL
     FROM (SELECT i.team_id, i.webhook_id, i.resource_key
             FROM webhook_streams i JOIN empty e USING (team_id, webhook_id, resource_key)
            WHERE i.xmin = e.row_version AND i.next_attempt_at IS NOT NULL
              FOR UPDATE OF i SKIP LOCKED) x
    WHERE s.team_id = x.team_id AND s.webhook_id = x.webhook_id AND s.resource_key = x.resource_key`,
);

/** How many deliveries are pending, and how long ago the oldest of their events happened (ms). */
export const WEBHOOK_BACKLOG = statement<[], { pending: number; oldest_ms: number | null }>(
  'webhook_backlog',
  `SELECT count(*)::int AS pending,
          (extract(epoch FROM now() - min(time_created)) * 1000)::float8 AS oldest_ms
     FROM webhook_deliveries WHERE state = 'pending'`,
);
