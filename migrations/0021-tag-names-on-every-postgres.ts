import { MigrationInterface, QueryRunner } from 'typeorm';
import { SIMPLE_LOWERCASE_FUNCTIONS } from './simple-lowercase';
import { TAG_NAME_KEYS } from './tag-name-keys';

/**
 * Moves a database whose tag-name indexes migration 0012 built on lower(name COLLATE pg_c_utf8)
 * (PostgreSQL 17 and later only, its Unicode version changing with the major) to what 0012 builds now.
 * The same names collide, and on 17 also those that differ only by a letter new in Unicode 16, the
 * later of which gets its id appended. A database that took 0012 as it is now has nothing to move.
 */
export class TagNamesOnEveryPostgres0000000000021 implements MigrationInterface {
  name = 'TagNamesOnEveryPostgres0000000000021';

  async up(db: QueryRunner): Promise<void> {
    const [{ keyed }] = (await db.query(
      `SELECT EXISTS (SELECT FROM pg_attribute
                       WHERE attrelid = 'tags'::regclass AND attname = 'name_key' AND NOT attisdropped) AS keyed`,
    )) as Array<{ keyed: boolean }>;
    if (keyed) return;
    // One statement per query: Citus sends a query's whole text to its workers, and refuses several commands in one.
    const dropped = ['tags_name_order', 'tags_project_name_key', 'tags_workspace_name_key'].map(
      (i) => `DROP INDEX ${i}`,
    );
    for (const statement of [...SIMPLE_LOWERCASE_FUNCTIONS, ...dropped, ...TAG_NAME_KEYS]) await db.query(statement);
  }

  /** Nothing: the indexes on name_key refuse every name the pg_c_utf8 ones did, for the code before too. */
  down(): Promise<void> {
    return Promise.resolve();
  }
}
