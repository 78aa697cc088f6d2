import { Actor } from '../common/actor';
import { statement } from '../database/statement';
import { HOLDS_KEY, KEEP_ANSWER, KEY_HELD, KeyParameters, KeyParams } from '../safe-writes/idempotency-queries';
import { stimeSql } from '../database/stime';
import { StoredEvent } from './event-payload';

/** Where the write statements below have their idempotency key. */
const KEY: KeyParameters = { key: '$8', claim: '$9', caller: '$10' };

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
 * Creates a webhook unless the workspace already has $7 of them. With an idempotency key, it creates
 * only while the request holds the key, and keeps its answer (the secret sealed, as stored) when it did.
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
  `WITH ${KEY_HELD(KEY)},
   created AS (
     INSERT INTO webhooks AS w (team_id, url, events, description, secret, created_by)
     SELECT $1, $2, $3::text[], $4, $5, $6::jsonb
      WHERE (SELECT count(*) FROM webhooks WHERE team_id = $1) < $7 AND ${HOLDS_KEY(KEY)}
     RETURNING ${WEBHOOK_VIEW}, w.secret AS sealed_secret
   ), result AS (
     SELECT c.*, ${HOLDS_KEY(KEY)} AS holds_key FROM (SELECT) one LEFT JOIN created c ON true
   ), ${KEEP_ANSWER(KEY, 201, 'to_jsonb(r)', 'r.id IS NOT NULL AND r.holds_key')}
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
  webhook_id: string;
  event_id: string;
  attempts: number;
  url: string;
  secret: string;
}

/**
 * Claims the next due delivery, locking its row for the rest of the worker's transaction (which
 * lasts the attempt): another process skips it, and a crash releases it for another to retry.
 * Per webhook, a delivery waits while an earlier one of the same resource is still pending (in
 * flight, or waiting for its retry): that is the order rule. Webhooks in $1 (those this process is
 * already sending to) are left for later, so one slow receiver holds at most one slot.
 */
export const CLAIM_DELIVERY = statement<[busyWebhookIds: string[]], ClaimedDelivery>(
  'claim_webhook_delivery',
  `SELECT d.team_id, d.webhook_id::text, d.event_id::text, d.attempts, w.url, w.secret,
          e.type, e.actor, e.resource, e.previous, e.time_created AS event_time
     FROM webhook_deliveries d
     JOIN webhooks w ON w.team_id = d.team_id AND w.id = d.webhook_id
     JOIN webhook_events e ON e.team_id = d.team_id AND e.id = d.event_id
    WHERE d.state = 'pending' AND d.next_attempt_at <= now()
      AND d.webhook_id <> ALL ($1::bigint[])
      AND NOT EXISTS (SELECT 1 FROM webhook_deliveries b
                       WHERE b.team_id = d.team_id AND b.webhook_id = d.webhook_id
                         AND b.resource_key = d.resource_key AND b.state = 'pending' AND b.event_id < d.event_id)
    ORDER BY d.next_attempt_at, d.event_id
    LIMIT 1
      FOR UPDATE OF d SKIP LOCKED`,
);

/**
 * Records an attempt and what follows from it: delivered; or retried after $7 ms; or, when that
 * would be later than $8 ms after the event, given up. Returns the outcome.
 */
export const RECORD_ATTEMPT = statement<
  [
    teamId: string,
    webhookId: string,
    eventId: string,
    attempt: number,
    succeeded: boolean,
    status: number | null,
    retryDelayMs: number,
    retryWindowMs: number,
    type: string,
  ],
  { outcome: AttemptRow['outcome'] }
>(
  'record_webhook_attempt',
  `WITH decided AS (
     SELECT CASE WHEN $5::boolean THEN 'delivered'
                 WHEN now() + $7 * interval '1 millisecond' > e.time_created + $8 * interval '1 millisecond'
                 THEN 'given_up'
                 ELSE 'retrying' END AS outcome,
            now() + $7 * interval '1 millisecond' AS next_at
       FROM webhook_events e WHERE e.team_id = $1 AND e.id = $3
   ), updated AS (
     UPDATE webhook_deliveries d
        SET attempts = $4,
            state = CASE o.outcome WHEN 'retrying' THEN 'pending' ELSE o.outcome END,
            next_attempt_at = CASE o.outcome WHEN 'retrying' THEN o.next_at ELSE d.next_attempt_at END,
            time_finished = CASE o.outcome WHEN 'retrying' THEN NULL ELSE now() END
       FROM decided o
      WHERE d.team_id = $1 AND d.webhook_id = $2 AND d.event_id = $3
   )
   INSERT INTO webhook_attempts (team_id, webhook_id, event_id, type, attempt, status, outcome, next_attempt_at)
   SELECT $1, $2, $3, $9, $4, $6, o.outcome, CASE o.outcome WHEN 'retrying' THEN o.next_at END FROM decided o
   RETURNING outcome`,
);

/**
 * Retention: finished deliveries, attempts and events older than $1 ms, and what deleted webhooks
 * left behind; at most 10000 deliveries a run, never one in flight.
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

/** How many deliveries are pending, and how long ago the oldest of their events happened (ms). */
export const WEBHOOK_BACKLOG = statement<[], { pending: number; oldest_ms: number | null }>(
  'webhook_backlog',
  `SELECT count(*)::int AS pending,
          (extract(epoch FROM now() - min(time_created)) * 1000)::float8 AS oldest_ms
     FROM webhook_deliveries WHERE state = 'pending'`,
);
