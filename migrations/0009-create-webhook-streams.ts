import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Delivery streams: one row per webhook and resource with deliveries, due when the earliest pending
 * delivery of that resource may be attempted (null: none pending). The worker claims streams, so it
 * reads one row per resource whatever the backlog behind it, where it read every delivery waiting
 * for an earlier one. The fan-out and the worker meet on the stream's row lock, so a delivery queued
 * while the one before it finishes is never left behind. Replaces the index of due deliveries.
 */
export class CreateWebhookStreams0000000000009 implements MigrationInterface {
  name = 'CreateWebhookStreams0000000000009';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE webhook_streams (
        team_id         text NOT NULL,
        webhook_id      bigint NOT NULL,
        resource_key    text NOT NULL,
        next_attempt_at timestamptz,
        -- The last event queued on it: a finished delivery of any other event leaves the stream due.
        last_event_id   bigint NOT NULL,
        PRIMARY KEY (team_id, webhook_id, resource_key)
      );
      CREATE INDEX webhook_streams_due ON webhook_streams (team_id, webhook_id, next_attempt_at)
        WHERE next_attempt_at IS NOT NULL;
      INSERT INTO webhook_streams (team_id, webhook_id, resource_key, next_attempt_at, last_event_id)
      SELECT team_id, webhook_id, resource_key, (array_agg(next_attempt_at ORDER BY event_id))[1], max(event_id)
        FROM webhook_deliveries WHERE state = 'pending'
       GROUP BY team_id, webhook_id, resource_key;
      DROP INDEX webhook_deliveries_due;
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';
      DROP TABLE webhook_streams;
    `);
  }
}
