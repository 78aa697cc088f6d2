import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Delivery lanes: each stream belongs to one of 4 lanes of its webhook, by a hash of its resource, so
 * that up to 4 transactions deliver one webhook at once, each holding one lane, and a stream's events
 * still go one at a time. Generated, so that a stream's lane never changes while a delivery of it may be
 * in flight (the worker's DELIVERY_LANES must stay 4 with it). The due index leads with the lane, which
 * the claim looks up per lane.
 */
export class DeliveryLanes0000000000019 implements MigrationInterface {
  name = 'DeliveryLanes0000000000019';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE webhook_streams
        ADD COLUMN lane smallint NOT NULL
          GENERATED ALWAYS AS ((hashtextextended(resource_key, 0) & 3)::smallint) STORED;
      DROP INDEX webhook_streams_due;
      CREATE INDEX webhook_streams_due ON webhook_streams (team_id, webhook_id, lane, next_attempt_at)
        WHERE next_attempt_at IS NOT NULL;
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE webhook_streams DROP COLUMN lane;
      CREATE INDEX webhook_streams_due ON webhook_streams (team_id, webhook_id, next_attempt_at)
        WHERE next_attempt_at IS NOT NULL;
    `);
  }
}
