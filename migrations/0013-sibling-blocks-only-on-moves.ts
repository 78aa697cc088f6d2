import { MigrationInterface, QueryRunner } from 'typeorm';
import { countingTrigger, MOVED, ONE_PAGE_STAYED } from './0006-count-siblings-in-blocks';

/** The places (project, parent, key) of one transition table's pages that have one. */
const placesOf = (rows: string) =>
  `SELECT team_id, project_id, parent_id, sort_key FROM ${rows} WHERE sort_key IS NOT NULL`;

/**
 * An UPDATE whose pages hold, together, the same places after as before: no block size changes. Set-wise
 * (EXCEPT ALL hashes both sides), so its cost is the statement's rows, not the tree's, and no join.
 */
const NOTHING_MOVED = `
  NOT EXISTS (${placesOf('old_rows')} EXCEPT ALL ${placesOf('new_rows')})
  AND NOT EXISTS (${placesOf('new_rows')} EXCEPT ALL ${placesOf('old_rows')})`;

/** The UPDATE trigger of migration 0006, counting the statement's pages only when it moves some. */
const updateTrigger = (nothingToCount: string) => `
  DROP TRIGGER pages_sibling_blocks_update ON pages;
  DROP FUNCTION page_sibling_blocks_updated();
  ${countingTrigger('page_sibling_blocks_updated', MOVED, nothingToCount)}
  CREATE TRIGGER pages_sibling_blocks_update AFTER UPDATE ON pages
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION page_sibling_blocks_updated();`;

/**
 * Statements that move no page skip the sibling blocks (migration 0006 skipped only a one-page UPDATE):
 * an import's version bump of 5,000 pages recomputed 10,000 pages' blocks for nothing, past the
 * statement timeout. (A trigger with transition tables cannot name columns in UPDATE OF.)
 */
export class SiblingBlocksOnlyOnMoves0000000000013 implements MigrationInterface {
  name = 'SiblingBlocksOnlyOnMoves0000000000013';

  async up(db: QueryRunner): Promise<void> {
    await db.query(updateTrigger(NOTHING_MOVED));
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(updateTrigger(ONE_PAGE_STAYED));
  }
}
