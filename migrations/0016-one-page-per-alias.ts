import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An alias_id names one page of the whole service, as its public URL `/p/{alias_id}` does: unique across
 * workspaces, not within one. An import could copy a page's alias into another workspace, and then one URL
 * named two pages. Pages that already share an alias keep it for the page shared first (else the oldest);
 * the others get a new one and a new version, so that their ETag moves with their public_settings.url.
 */
export class OnePagePerAlias0000000000016 implements MigrationInterface {
  name = 'OnePagePerAlias0000000000016';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      WITH ranked AS (
        SELECT p.team_id, p.id,
               row_number() OVER (PARTITION BY p.alias_id
                                  ORDER BY d.time_shared NULLS LAST, p.time_created, p.team_id, p.id) AS rank
          FROM pages p
          LEFT JOIN public_page_aliases d ON d.team_id = p.team_id AND d.page_id = p.id
      )
      UPDATE pages p SET alias_id = gen_random_uuid(), version = p.version + 1
        FROM ranked r
       WHERE r.team_id = p.team_id AND r.id = p.id AND r.rank > 1;

      ALTER TABLE pages DROP CONSTRAINT pages_team_id_alias_id_key;
      ALTER TABLE pages ADD CONSTRAINT pages_alias_id_key UNIQUE (alias_id);
      ALTER TABLE public_page_aliases DROP CONSTRAINT public_page_aliases_pkey;
      ALTER TABLE public_page_aliases ADD PRIMARY KEY (alias_id);
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE public_page_aliases DROP CONSTRAINT public_page_aliases_pkey;
      ALTER TABLE public_page_aliases ADD PRIMARY KEY (alias_id, team_id);
      ALTER TABLE pages DROP CONSTRAINT pages_alias_id_key;
      ALTER TABLE pages ADD CONSTRAINT pages_team_id_alias_id_key UNIQUE (team_id, alias_id);
    `);
  }
}
