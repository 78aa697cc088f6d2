import { Client } from 'pg';
import { MIGRATIONS } from '../../migrations';
import { OnePagePerAlias0000000000016 } from '../../migrations/0016-one-page-per-alias';
import { createEmptyDatabase, EmptyDatabase, runMigrations } from '../support/empty-database';

const SHARED = '11111111-1111-4111-8111-111111111111';
const UNSHARED = '22222222-2222-4222-8222-222222222222';

/** Three workspaces, each with a page on each of two aliases; only workspace b shares its first page. */
const SEED = `
  INSERT INTO workspaces (id) VALUES ('a'), ('b'), ('c');
  INSERT INTO users (id) VALUES ('u');
  INSERT INTO members (team_id, user_id, role) SELECT id, 'u', 'owner' FROM workspaces;
  INSERT INTO projects (team_id, id) SELECT id, '1' FROM workspaces;
  INSERT INTO pages (team_id, id, project_id, sort_key, alias_id, owner_id, created_by, updated_by,
                     is_public, time_created)
  SELECT w.id, n, '1', 'a' || n, alias::uuid, 'u', '{}', '{}', w.id = 'b' AND n = 1, now() - (ord || ' hours')::interval
    FROM workspaces w
    CROSS JOIN (VALUES (1, '${SHARED}'), (2, '${UNSHARED}')) AS p(n, alias)
    CROSS JOIN LATERAL (SELECT CASE w.id WHEN 'a' THEN 3 WHEN 'b' THEN 1 ELSE 2 END) AS o(ord);
`;

describe('migration 0016: one page per alias across workspaces', () => {
  let database: EmptyDatabase;
  let db: Client;
  const migrate = (migrations: typeof MIGRATIONS) => runMigrations(database.url, migrations);
  const holders = async (alias: string) =>
    (
      await db.query<{ team_id: string; version: string }>(
        'SELECT team_id, version::text FROM pages WHERE alias_id = $1 ORDER BY team_id',
        [alias],
      )
    ).rows;

  beforeAll(async () => {
    database = await createEmptyDatabase();
    const before = MIGRATIONS.indexOf(OnePagePerAlias0000000000016);
    await migrate(MIGRATIONS.slice(0, before));
    db = new Client({ connectionString: database.url });
    await db.connect();
    await db.query(SEED);
    await migrate(MIGRATIONS.slice(0, before + 1));
  }, 60_000);

  afterAll(async () => {
    await db?.end();
    await database?.drop();
  });

  it('keeps a shared alias for the page shared first, and moves the others with a new version', async () => {
    expect(await holders(SHARED)).toEqual([{ team_id: 'b', version: '1' }]);
    const { rows } = await db.query<{ team_id: string; version: string }>(
      `SELECT team_id, version::text FROM pages WHERE id = 1 AND team_id <> 'b' ORDER BY team_id`,
    );
    expect(rows).toEqual([
      { team_id: 'a', version: '2' },
      { team_id: 'c', version: '2' },
    ]);
  });

  it('keeps an alias nobody shares for its oldest page', async () => {
    expect(await holders(UNSHARED)).toEqual([{ team_id: 'a', version: '1' }]);
  });

  it('leaves every page a distinct alias, and the directory the shared page under it', async () => {
    const { rows } = await db.query<{ pages: number; aliases: number }>(
      'SELECT count(*)::int AS pages, count(DISTINCT alias_id)::int AS aliases FROM pages',
    );
    expect(rows[0].aliases).toBe(rows[0].pages);
    const directory = await db.query('SELECT alias_id::text, team_id, page_id::text FROM public_page_aliases');
    expect(directory.rows).toEqual([{ alias_id: SHARED, team_id: 'b', page_id: '1' }]);
  });
});
