import { Client } from 'pg';
import { MigrationInterface, QueryRunner } from 'typeorm';
import { MIGRATIONS } from '../../migrations';
import { TagNamesAndVersions0000000000012 } from '../../migrations/0012-tag-names-and-versions';
import { createEmptyDatabase, EmptyDatabase, runMigrations } from '../support/empty-database';
import { describeFromMajor, TEST_DATABASE_MAJOR } from '../support/server-major';

/** Migration 0012 as a database that took it on PostgreSQL 17 or 18 has it: names keyed under pg_c_utf8. */
class TagNamesUnderPgCUtf8 implements MigrationInterface {
  name = new TagNamesAndVersions0000000000012().name;

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE tags ADD COLUMN version bigint NOT NULL DEFAULT 1;
      CREATE UNIQUE INDEX tags_workspace_name_key ON tags (team_id, lower(name COLLATE pg_c_utf8))
        WHERE project_id IS NULL;
      CREATE UNIQUE INDEX tags_project_name_key ON tags (team_id, project_id, lower(name COLLATE pg_c_utf8))
        WHERE project_id IS NOT NULL;
      CREATE INDEX tags_name_order ON tags (team_id, lower(name COLLATE pg_c_utf8), id);
    `);
  }

  down(): Promise<void> {
    return Promise.resolve();
  }
}

/**
 * Workspace w's tags; 3 differs from 2 only by a capital new in Unicode 16 (U+A7CB, whose lowercase is
 * 3's U+0264), so PostgreSQL 17's pg_c_utf8 (Unicode 15.1) lets it in and 18's refuses it.
 */
const SEED = `
  INSERT INTO workspaces (id) VALUES ('w');
  INSERT INTO projects (team_id, id) VALUES ('w', 'p');
  INSERT INTO tags (team_id, id, project_id, name, slug, color) VALUES
    ('w', 1, NULL, 'Bug', 'bug', 'red'), ('w', 2, NULL, 'Rams \uA7CB', 'r', 'red'),
    ('w', 4, 'p', 'rams \u0264', 'r', 'red'), ('w', 5, 'p', 'Éclair', 'e', 'red');
  INSERT INTO tags (team_id, id, project_id, name, slug, color) VALUES ('w', 3, NULL, 'rams \u0264', 'r', 'red')
    ON CONFLICT DO NOTHING;
`;

describeFromMajor(17, 'migration 0022: tag names from pg_c_utf8 to simple_lowercase', 'pg_c_utf8 is new in 17', () => {
  let database: EmptyDatabase;
  let db: Client;
  let before: Array<{ id: string; name: string }>;
  const migrate = (migrations: typeof MIGRATIONS) => runMigrations(database.url, migrations);
  const tags = async () =>
    (
      await db.query<{ id: string; name: string; version: string }>(
        'SELECT id::text, name, version::text FROM tags ORDER BY id',
      )
    ).rows;

  beforeAll(async () => {
    database = await createEmptyDatabase();
    const at = MIGRATIONS.indexOf(TagNamesAndVersions0000000000012);
    await migrate([...MIGRATIONS.slice(0, at), TagNamesUnderPgCUtf8]);
    db = new Client({ connectionString: database.url });
    await db.connect();
    await db.query(SEED);
    before = await tags();
    await migrate(MIGRATIONS);
  }, 60_000);

  afterAll(async () => {
    await db?.end();
    await database?.drop();
  });

  it('keeps every name, but appends its id to one taken since Unicode 16 (as 0012 did to duplicates)', async () => {
    const renamed = (id: string) => id === '3';
    expect(await tags()).toEqual(
      before.map(({ id, name }) =>
        renamed(id) ? { id, name: `${name} (${id})`, version: '2' } : { id, name, version: '1' },
      ),
    );
    expect(before.map(({ id }) => id)).toEqual(
      TEST_DATABASE_MAJOR === 17 ? ['1', '2', '3', '4', '5'] : ['1', '2', '4', '5'],
    );
  });

  it('keys the indexes on name_key, computed by simple_lowercase', async () => {
    const { rows } = await db.query<{ indexdef: string }>(
      `SELECT indexdef FROM pg_indexes WHERE tablename = 'tags' AND indexname IN
         ('tags_workspace_name_key', 'tags_project_name_key', 'tags_name_order') ORDER BY indexname`,
    );
    expect(rows).toHaveLength(3);
    for (const { indexdef } of rows) expect(indexdef).toMatch(/\(team_id, (project_id, )?name_key(, id)?\)/);
    const { rows: keys } = await db.query<{ name_key: string }>(`SELECT name_key FROM tags WHERE id = 5`);
    expect(keys).toEqual([{ name_key: 'éclair' }]);
  });

  it('refuses a name taken in another case, in either scope', async () => {
    await expect(
      db.query(
        `INSERT INTO tags (team_id, id, project_id, name, slug, color) VALUES ('w', 6, NULL, 'BUG', 'b', 'red')`,
      ),
    ).rejects.toMatchObject({ code: '23505', constraint: 'tags_workspace_name_key' });
    await expect(
      db.query(
        `INSERT INTO tags (team_id, id, project_id, name, slug, color) VALUES ('w', 7, 'p', 'ÉCLAIR', 'e', 'red')`,
      ),
    ).rejects.toMatchObject({ code: '23505', constraint: 'tags_project_name_key' });
  });
});
