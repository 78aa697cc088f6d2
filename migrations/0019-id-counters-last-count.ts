import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * How many ids a counter's last allocation took, so that the allocation's `ON CONFLICT DO UPDATE` reads its
 * count from EXCLUDED instead of a subquery (Citus refuses subqueries in an INSERT's VALUES and ON CONFLICT:
 * docs/citus.md). A constant default: adding it rewrites nothing.
 */
export class IdCountersLastCount0000000000019 implements MigrationInterface {
  name = 'IdCountersLastCount0000000000019';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE id_counters ADD COLUMN last_count bigint NOT NULL DEFAULT 0`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE id_counters DROP COLUMN last_count`);
  }
}
