import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Change events (webhooks): the subscriptions, the outbox of events (written by the same statement or
 * transaction as the change), one delivery per event and subscribed webhook (the queue the delivery
 * worker claims with FOR UPDATE SKIP LOCKED), and the log of every attempt. Deliveries and attempts
 * carry no foreign key to webhooks: a change that fans out while a webhook is being deleted must not
 * fail on it; deliveries of a deleted webhook are never claimed and housekeeping removes them.
 */
export class CreateWebhooks0000000000008 implements MigrationInterface {
  name = 'CreateWebhooks0000000000008';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE webhooks (
        team_id      text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        id           bigserial NOT NULL,
        url          text NOT NULL CHECK (char_length(url) <= 2048),
        events       text[] NOT NULL CHECK (cardinality(events) > 0),
        description  text NOT NULL DEFAULT '',
        -- The signing secret, sealed with WEBHOOK_SECRET_KEY (src/webhooks/webhook-secrets.ts).
        secret       text NOT NULL,
        created_by   jsonb NOT NULL,
        time_created timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (team_id, id)
      );

      CREATE TABLE webhook_events (
        team_id       text NOT NULL,
        id            bigserial NOT NULL,
        type          text NOT NULL,
        resource_type text NOT NULL,
        resource_id   text NOT NULL,
        actor         jsonb NOT NULL,
        -- The write statement's row (what its response is built from) and, for updates, the values before.
        resource      jsonb NOT NULL,
        previous      jsonb,
        time_created  timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (team_id, id)
      );
      CREATE INDEX webhook_events_time_created ON webhook_events (time_created);

      CREATE TABLE webhook_deliveries (
        team_id         text NOT NULL,
        webhook_id      bigint NOT NULL,
        event_id        bigint NOT NULL,
        -- Events of one resource reach one webhook in event order: 'page:10', 'card:500', ...
        resource_key    text NOT NULL,
        state           text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'given_up')),
        attempts        int NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        time_created    timestamptz NOT NULL DEFAULT now(),
        time_finished   timestamptz,
        PRIMARY KEY (team_id, webhook_id, event_id)
      );
      CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';
      CREATE INDEX webhook_deliveries_order ON webhook_deliveries (team_id, webhook_id, resource_key, event_id)
        WHERE state = 'pending';
      CREATE INDEX webhook_deliveries_finished ON webhook_deliveries (time_finished) WHERE state <> 'pending';

      CREATE TABLE webhook_attempts (
        team_id         text NOT NULL,
        webhook_id      bigint NOT NULL,
        event_id        bigint NOT NULL,
        type            text NOT NULL,
        attempt         int NOT NULL,
        status          int,
        outcome         text NOT NULL CHECK (outcome IN ('delivered', 'retrying', 'given_up')),
        time            timestamptz NOT NULL DEFAULT now(),
        next_attempt_at timestamptz,
        PRIMARY KEY (team_id, webhook_id, event_id, attempt)
      );
      CREATE INDEX webhook_attempts_newest ON webhook_attempts (team_id, webhook_id, time DESC, event_id DESC);
      CREATE INDEX webhook_attempts_time ON webhook_attempts (time);
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE webhook_attempts; DROP TABLE webhook_deliveries; DROP TABLE webhook_events;
                    DROP TABLE webhooks;`);
  }
}
