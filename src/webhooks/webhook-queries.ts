import { Actor } from '../common/actor';
import { statement } from '../database/statement';
import { stimeSql } from '../database/stime';
import { writeStatement } from '../write-path/write-statement';
import { StoredEvent } from './event-payload';

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

/** A row of CREATE_WEBHOOK: the webhook (its id null when the workspace had `max` already) and its sealed secret. */
export interface CreatedWebhookRow extends Omit<WebhookRow, 'id'> {
  id: string | null;
  sealed_secret: string;
}

/**
 * The first statement of a creation: the workspace's lock on its list of webhooks, so that CREATE_WEBHOOK
 * (a later statement of the transaction, whose snapshot sees the creations committed before it) counts
 * them under it and two creations never both take the last place.
 */
export const LOCK_WEBHOOK_LIST = statement<{ teamId: string }, { locked: string }>(
  'lock_webhook_list',
  `SELECT pg_advisory_xact_lock(hashtextextended(:teamId || ':webhooks', 0))::text AS locked`,
);

/** A webhook to create, and how many the workspace may have. */
export interface CreateWebhookParams {
  teamId: string;
  callerId: string;
  url: string;
  events: string[];
  description: string;
  sealedSecret: string;
  actor: string;
  max: number;
}

/** Creates a webhook unless the workspace already has `max` of them (under LOCK_WEBHOOK_LIST). */
export const CREATE_WEBHOOK = writeStatement<CreateWebhookParams, CreatedWebhookRow>('create_webhook', {
  plan: `
    SELECT :teamId::text AS team_id, :url::text AS url, :events::text[] AS events, :description::text AS description,
           :sealedSecret::text AS secret, :actor::jsonb AS created_by
     WHERE (SELECT count(*) FROM webhooks WHERE team_id = :teamId) < :max`,
  changes: {
    created: `
      INSERT INTO webhooks AS w (team_id, url, events, description, secret, created_by)
      SELECT team_id, url, events, description, secret, created_by FROM planned
      RETURNING ${WEBHOOK_VIEW}, w.secret AS sealed_secret`,
  },
  result: `SELECT c.* FROM (SELECT) one LEFT JOIN created c ON true`,
  keep: { status: 201, succeeded: 'r.id IS NOT NULL' },
});

/** Which webhook. */
export interface WebhookKey {
  teamId: string;
  webhookId: string;
}

export const LIST_WEBHOOKS = statement<{ teamId: string }, WebhookRow>(
  'list_webhooks',
  `SELECT ${WEBHOOK_VIEW} FROM webhooks w WHERE w.team_id = :teamId ORDER BY w.id`,
);

export const READ_WEBHOOK = statement<WebhookKey, WebhookRow>(
  'read_webhook',
  `SELECT ${WEBHOOK_VIEW} FROM webhooks w WHERE w.team_id = :teamId AND w.id = :webhookId`,
);

/**
 * Deletes a webhook, keeping its 204 under the request's idempotency key. Its deliveries are never
 * claimed again (the claim joins webhooks) and housekeeping removes them; deleting them here would wait
 * for an attempt in flight.
 */
export const DELETE_WEBHOOK = writeStatement<WebhookKey & { callerId: string }, { deleted: boolean }>(
  'delete_webhook',
  {
    target: `SELECT w.id FROM webhooks w WHERE w.team_id = :teamId AND w.id = :webhookId FOR UPDATE`,
    plan: `SELECT x.id FROM target x`,
    changes: {
      deleted: `DELETE FROM webhooks w USING planned d WHERE w.team_id = :teamId AND w.id = d.id RETURNING w.id`,
    },
    result: `SELECT EXISTS (SELECT 1 FROM deleted) AS deleted`,
    keep: { status: 204, succeeded: 'r.deleted' },
  },
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

/** A webhook's attempts, newest first, at most `limit`. */
export const LIST_ATTEMPTS = statement<WebhookKey & { limit: number }, AttemptRow>(
  'list_webhook_attempts',
  `SELECT a.event_id::text AS id, a.type, a.attempt, a.status, ${stimeSql('a.time')}::float8 AS time,
          ${stimeSql('a.next_attempt_at')}::float8 AS next_attempt, a.outcome
     FROM webhook_attempts a
    WHERE a.team_id = :teamId AND a.webhook_id = :webhookId
    ORDER BY a.time DESC, a.event_id DESC, a.attempt DESC
    LIMIT :limit`,
);

/** A delivery claimed by a worker, with its webhook and its event. */
export interface WorkspaceDelivery extends StoredEvent {
  /** Where its locked row is, for RECORD_ATTEMPTS: the row cannot move while the claim holds it. */
  ref: string;
  webhook_id: string;
  event_id: string;
  resource_key: string;
  attempts: number;
  url: string;
  secret: string;
  /** The W3C traceparent of the request that made the change; null when it was not traced. */
  trace_parent: string | null;
}

/** A delivery CLAIM_DELIVERIES claimed. */
export interface ClaimedDelivery extends WorkspaceDelivery {
  /** Another webhook not in `busyWebhookIds` had deliveries due when this batch was claimed. */
  others_due: boolean;
}

/** Delivery `d` is pending in stream `s` (its webhook and resource) of workspace `team`. */
const PENDING_IN = (d: string, s: string, team = `${s}.team_id`) => `
  ${d}.team_id = ${team} AND ${d}.webhook_id = ${s}.webhook_id AND ${d}.resource_key = ${s}.resource_key
  AND ${d}.state = 'pending'`;

/**
 * Joins stream `s` (of workspace `team`) to its head: its earliest pending delivery (none, no row), found
 * by its key.
 */
const HEAD = (s: string, team?: string) => `
  CROSS JOIN LATERAL (
    SELECT h.ctid AS head FROM webhook_deliveries h
     WHERE ${PENDING_IN('h', s, team)}
     ORDER BY h.event_id
     LIMIT 1) h`;

/**
 * The webhooks with deliveries due (their `columns`), the one whose earliest due stream is earliest first,
 * among those not in `busyWebhookIds`. A due stream counts only with a pending delivery (HEAD).
 */
const WEBHOOKS_DUE = (columns: string) => `
  SELECT ${columns}
    FROM webhooks w
    CROSS JOIN LATERAL (
      SELECT s.next_attempt_at FROM webhook_streams s ${HEAD('s')}
       WHERE s.team_id = w.team_id AND s.webhook_id = w.id AND s.next_attempt_at <= now()
       ORDER BY s.next_attempt_at
       LIMIT 1) first
   WHERE w.id <> ALL (:busyWebhookIds::bigint[])
   ORDER BY first.next_attempt_at`;

/** No other transaction is sending to webhook `w` (its advisory lock, taken here, is free). */
const WEBHOOK_FREE = (w: string) =>
  `pg_try_advisory_xact_lock(hashtextextended(${w}.team_id || ':webhook:' || ${w}.id, 0))`;

/**
 * The batch of the webhook in `chosen` (c): at most `limit` due streams' heads, locked, with their events;
 * `team` is the workspace where it is known (for Citus, a statement names it), else each row's own.
 */
const BATCH_OF_CHOSEN = (columns: string, team?: string) => `
   SELECT d.ctid::text AS ref, d.team_id, d.webhook_id::text, d.event_id::text, d.resource_key, d.attempts,
          c.url, c.secret, e.type, e.actor, e.resource, e.previous, e.time_created AS event_time,
          e.trace_parent${columns}
     FROM chosen c
     CROSS JOIN LATERAL (
       SELECT h.head FROM webhook_streams s ${HEAD('s', team)}
        WHERE s.team_id = ${team ?? 'c.team_id'} AND s.webhook_id = c.id AND s.next_attempt_at <= now()
        ORDER BY s.next_attempt_at
        LIMIT :limit) s
     JOIN webhook_deliveries d ON ${team ? `d.team_id = ${team} AND ` : ''}d.ctid = s.head
     CROSS JOIN LATERAL (
       SELECT e.type, e.actor, e.resource, e.previous, e.time_created, e.trace_parent FROM webhook_events e
        WHERE e.team_id = ${team ?? 'd.team_id'} AND e.id = d.event_id
        LIMIT 1) e
    WHERE d.state = 'pending'
      FOR UPDATE OF d SKIP LOCKED`;

/**
 * Claims a batch of due deliveries of one webhook, for the rest of the worker's transaction (which lasts
 * the attempts): at most `limit`, each the earliest pending delivery of its stream (webhook and resource), so
 * a later event of a resource waits until the earlier ones succeeded or were given up. The webhook is the
 * one whose earliest due stream is earliest, among those not in `busyWebhookIds` (the webhooks this process is already
 * sending to) and not being sent to by another transaction: the first whose advisory lock it takes, so
 * one slow receiver holds one slot. The head deliveries are locked too, and a crash releases both for
 * another process to retry. Each row also says whether another webhook had deliveries due (`others_due`).
 * A due stream counts only with a pending delivery (HEAD). Each row is reached by its key: the LIMITs keep
 * the planner from trading those lookups for a scan when the statistics say the tables are empty. One
 * PostgreSQL only: Citus takes no lock in a statement across shards (DUE_WEBHOOKS and
 * CLAIM_WORKSPACE_DELIVERIES instead).
 */
export const CLAIM_DELIVERIES = statement<{ busyWebhookIds: string[]; limit: number }, ClaimedDelivery>(
  'claim_webhook_deliveries',
  `WITH due AS (${WEBHOOKS_DUE('w.team_id, w.id, w.url, w.secret')}
     OFFSET 0
   ), chosen AS MATERIALIZED (
     SELECT c.*, EXISTS (SELECT FROM due o WHERE o.id <> c.id) AS others_due
       FROM due c WHERE ${WEBHOOK_FREE('c')} LIMIT 1
   )
   ${BATCH_OF_CHOSEN(', c.others_due')}`,
);

/** A webhook with deliveries due, for CLAIM_WORKSPACE_DELIVERIES to claim. */
export interface DueWebhook {
  team_id: string;
  webhook_id: string;
}

/**
 * The webhooks with deliveries due, the one whose earliest due stream is earliest first, at most `limit`,
 * among those not in `busyWebhookIds` (the webhooks this process is already sending to). Read without a
 * lock, in every workspace (on Citus, every shard: a lock there could not be taken);
 * CLAIM_WORKSPACE_DELIVERIES then claims within one. A due stream counts only with a pending delivery
 * (HEAD). Each row is reached by its key: the LIMITs keep the planner from trading those lookups for a
 * scan when the statistics say the tables are empty.
 */
export const DUE_WEBHOOKS = statement<{ busyWebhookIds: string[]; limit: number }, DueWebhook>(
  'due_webhooks',
  `${WEBHOOKS_DUE('w.team_id, w.id::text AS webhook_id')}
   LIMIT :limit`,
);

/**
 * CLAIM_DELIVERIES within one workspace, for Citus: the batch of one webhook that DUE_WEBHOOKS found, or
 * nothing when another transaction is sending to it (its advisory lock is taken).
 */
export const CLAIM_WORKSPACE_DELIVERIES = statement<
  { teamId: string; webhookId: string; limit: number },
  WorkspaceDelivery
>(
  'claim_workspace_deliveries',
  `WITH chosen AS MATERIALIZED (
     SELECT w.team_id, w.id, w.url, w.secret FROM webhooks w
      WHERE w.team_id = :teamId AND w.id = :webhookId AND ${WEBHOOK_FREE('w')}
   )
   ${BATCH_OF_CHOSEN('', ':teamId')}`,
);

/**
 * Records the attempts of a batch claimed by CLAIM_DELIVERIES or CLAIM_WORKSPACE_DELIVERIES (one webhook
 * of one workspace), each with what follows from it: delivered; or retried after its delay (and its
 * stream with it); or, when that would be later than `retryWindowMs` after its event (`eventTimes`),
 * given up. A finished delivery makes its stream due for the next one, or idle when none was queued after
 * it: the stream's last event, read from the row this statement locks, is what a fan-out committing
 * meanwhile changes. Returns each event's outcome.
 *
 * Every row is reached by its own key, whatever the statistics say: the outbox tables grow from nothing
 * between two ANALYZEs, and a plan that believes them empty reads all of a webhook's rows (bench/README.md).
 * The deliveries by ctid (`refs`: the claim holds those rows, so they cannot move), the streams by key
 * (`resourceKeys`), and the events not at all (the claim read their times). Its CASEs test `o.outcome = ...`:
 * Citus sends the short form (`CASE o.outcome WHEN ...`) to a shard as a comparison with a boolean.
 */
export const RECORD_ATTEMPTS = statement<
  {
    teamId: string;
    webhookId: string;
    eventIds: string[];
    attempts: number[];
    succeeded: boolean[];
    statuses: Array<number | null>;
    retryDelaysMs: number[];
    types: string[];
    retryWindowMs: number;
    resourceKeys: string[];
    refs: string[];
    eventTimes: Date[];
  },
  { event_id: string; outcome: AttemptRow['outcome'] }
>(
  'record_webhook_attempts',
  `WITH decided AS MATERIALIZED (
     SELECT a.*,
            CASE WHEN a.succeeded THEN 'delivered'
                 WHEN now() + a.delay_ms * interval '1 millisecond'
                      > a.event_time + :retryWindowMs * interval '1 millisecond'
                 THEN 'given_up'
                 ELSE 'retrying' END AS outcome,
            now() + a.delay_ms * interval '1 millisecond' AS next_at, now() AS now
       FROM unnest(:eventIds::bigint[], :attempts::int[], :succeeded::boolean[], :statuses::int[],
                   :retryDelaysMs::float8[], :types::text[], :refs::tid[], :eventTimes::timestamptz[])
            AS a(event_id, attempt, succeeded, status, delay_ms, type, ref, event_time)
   ), updated AS (
     UPDATE webhook_deliveries d
        SET attempts = o.attempt,
            state = CASE WHEN o.outcome = 'retrying' THEN 'pending' ELSE o.outcome END,
            next_attempt_at = CASE WHEN o.outcome = 'retrying' THEN o.next_at ELSE d.next_attempt_at END,
            time_finished = CASE WHEN o.outcome = 'retrying' THEN NULL ELSE o.now END
       FROM decided o
      WHERE d.ctid = ANY (:refs::tid[]) AND d.ctid = o.ref AND d.event_id = o.event_id
        AND d.team_id = :teamId AND d.webhook_id = :webhookId
     RETURNING d.resource_key, d.event_id, o.outcome, o.next_at, o.now
   ), stream AS (
     UPDATE webhook_streams s
        SET next_attempt_at = CASE WHEN u.outcome = 'retrying' THEN u.next_at
                                   WHEN s.last_event_id = u.event_id THEN NULL
                                   ELSE u.now END
       FROM updated u
      WHERE s.team_id = :teamId AND s.webhook_id = :webhookId AND s.resource_key = ANY (:resourceKeys::text[])
        AND s.resource_key = u.resource_key
   )
   INSERT INTO webhook_attempts (team_id, webhook_id, event_id, type, attempt, status, outcome, next_attempt_at)
   SELECT :teamId, :webhookId, o.event_id, o.type, o.attempt, o.status, o.outcome,
          CASE WHEN o.outcome = 'retrying' THEN o.next_at END
     FROM decided o
   RETURNING event_id::text, outcome`,
);

/** A webhook row of workspace `team` that `x` (a delivery, an attempt, a stream) belongs to exists no more. */
const WEBHOOK_GONE = (x: string, team: string) =>
  `NOT EXISTS (SELECT 1 FROM webhooks w WHERE w.team_id = ${team} AND w.id = ${x}.webhook_id)`;

/** The moment before which finished webhook data goes. */
const CUTOFF = `WITH cutoff AS MATERIALIZED (SELECT now() - :retentionMs * interval '1 millisecond' AS at)`;

/**
 * What the retention removes of each table, for row `x` of workspace `team`: one condition each, which
 * WORKSPACES_TO_TRIM looks for and TRIM_WEBHOOK_DATA deletes.
 */
const TRIMMED = {
  delivery: (x: string, team: string) =>
    `(${x}.state <> 'pending' AND ${x}.time_finished < (SELECT at FROM cutoff)) OR ${WEBHOOK_GONE(x, team)}`,
  attempt: (x: string, team: string) => `${x}.time < (SELECT at FROM cutoff) OR ${WEBHOOK_GONE(x, team)}`,
  stream: (x: string, team: string) => `${x}.next_attempt_at IS NULL OR ${WEBHOOK_GONE(x, team)}`,
  event: (x: string, team: string) => `${x}.time_created < (SELECT at FROM cutoff)
    AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d
                     WHERE d.team_id = ${team} AND d.event_id = ${x}.id AND d.state = 'pending')`,
};

/**
 * The workspaces that have webhook data for TRIM_WEBHOOK_DATA to remove, at most `limit`: read without a
 * lock, in every workspace (on Citus, every shard), so that the trim itself locks within one.
 */
export const WORKSPACES_TO_TRIM = statement<{ retentionMs: number; limit: number }, { team_id: string }>(
  'workspaces_to_trim',
  `${CUTOFF}
   SELECT team_id FROM (
     SELECT d.team_id FROM webhook_deliveries d WHERE ${TRIMMED.delivery('d', 'd.team_id')}
     UNION
     SELECT a.team_id FROM webhook_attempts a WHERE ${TRIMMED.attempt('a', 'a.team_id')}
     UNION
     SELECT s.team_id FROM webhook_streams s WHERE ${TRIMMED.stream('s', 's.team_id')}
     UNION
     SELECT e.team_id FROM webhook_events e WHERE ${TRIMMED.event('e', 'e.team_id')}
   ) due
   LIMIT :limit`,
);

/**
 * Retention in one workspace: finished deliveries, attempts and events older than `retentionMs`, idle
 * streams, and what deleted webhooks left behind (TRIMMED); at most 10000 deliveries a workspace a run,
 * never one in flight. It never waits for a stream's row (a write waiting for it while holding another
 * would deadlock): a locked one is left.
 */
export const TRIM_WEBHOOK_DATA = statement<
  { teamId: string; retentionMs: number },
  { deliveries: number; attempts: number; events: number }
>(
  'trim_webhook_data',
  `${CUTOFF}, deliveries AS (
     DELETE FROM webhook_deliveries d
      WHERE d.team_id = :teamId AND (d.team_id, d.webhook_id, d.event_id) IN (
        SELECT x.team_id, x.webhook_id, x.event_id FROM webhook_deliveries x
         WHERE x.team_id = :teamId AND (${TRIMMED.delivery('x', ':teamId')})
         LIMIT 10000
           FOR UPDATE SKIP LOCKED)
     RETURNING 1
   ), attempts AS (
     DELETE FROM webhook_attempts a
      WHERE a.team_id = :teamId AND (${TRIMMED.attempt('a', ':teamId')})
     RETURNING 1
   ), streams AS (
     DELETE FROM webhook_streams s
      WHERE s.team_id = :teamId AND (s.team_id, s.webhook_id, s.resource_key) IN (
        SELECT x.team_id, x.webhook_id, x.resource_key FROM webhook_streams x
         WHERE x.team_id = :teamId AND (${TRIMMED.stream('x', ':teamId')})
           FOR UPDATE SKIP LOCKED)
   ), events AS (
     DELETE FROM webhook_events e
      WHERE e.team_id = :teamId AND ${TRIMMED.event('e', ':teamId')}
     RETURNING 1
   )
   SELECT (SELECT count(*) FROM deliveries)::int AS deliveries, (SELECT count(*) FROM attempts)::int AS attempts,
          (SELECT count(*) FROM events)::int AS events`,
);

/** How many deliveries are pending, and how long ago the oldest of their events happened (ms). */
export const WEBHOOK_BACKLOG = statement<Record<never, never>, { pending: number; oldest_ms: number | null }>(
  'webhook_backlog',
  `SELECT count(*)::int AS pending,
          (extract(epoch FROM now() - min(time_created)) * 1000)::float8 AS oldest_ms
     FROM webhook_deliveries WHERE state = 'pending'`,
);
