import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An event keeps the W3C traceparent of the request that made its change (null without traces), so that
 * its delivery's span links to that request. Nullable without a default: adding it rewrites nothing.
 */
export class EventTraceParents0000000000018 implements MigrationInterface {
  name = 'EventTraceParents0000000000018';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE webhook_events ADD COLUMN trace_parent text`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE webhook_events DROP COLUMN trace_parent`);
  }
}
