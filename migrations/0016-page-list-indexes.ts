import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The page list's keyset orders that no index had yet: archived pages newest archive first, and
 * recently changed pages newest change first (the tree walk reads pages_sibling_order_key).
 */
export class PageListIndexes0000000000016 implements MigrationInterface {
  name = 'PageListIndexes0000000000016';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE INDEX page_archives_time_idx ON page_archives (team_id, time_archived DESC, page_id DESC);
      CREATE INDEX pages_time_updated_idx ON pages (team_id, time_updated DESC, id DESC);
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX pages_time_updated_idx; DROP INDEX page_archives_time_idx;`);
  }
}
