import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When an idempotency key's claim was taken, by the database's clock. The claim statement decides
 * whether the key row it meets may be taken over by comparing that row with this time of the new
 * claim, so that its ON CONFLICT DO UPDATE reads columns only, never the clock: a distributed
 * PostgreSQL (Citus) refuses a function that is not immutable there.
 */
export class ClaimTimes0000000000010 implements MigrationInterface {
  name = 'ClaimTimes0000000000010';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE idempotency_keys ADD COLUMN claimed_at timestamptz`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE idempotency_keys DROP COLUMN claimed_at`);
  }
}
