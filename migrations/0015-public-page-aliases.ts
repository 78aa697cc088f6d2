import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The directory of shared pages, keyed by alias_id: how GET /p/{alias_id} finds a page's workspace
 * without looking in every workspace (docs/public-pages.md). It holds the pages that are public now, kept
 * in step with pages by a trigger, so that every writer (update, create, copy, import) is covered; a
 * deleted page leaves it through the foreign key. An alias_id is unique within a workspace only (an import
 * may give two workspaces the same one), hence the key (alias_id, team_id).
 */
export class PublicPageAliases0000000000015 implements MigrationInterface {
  name = 'PublicPageAliases0000000000015';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE public_page_aliases (
        alias_id    uuid NOT NULL,
        team_id     text NOT NULL,
        page_id     bigint NOT NULL,
        time_shared timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (alias_id, team_id),
        UNIQUE (team_id, page_id),
        FOREIGN KEY (team_id, page_id) REFERENCES pages (team_id, id) ON DELETE CASCADE
      );

      CREATE FUNCTION sync_public_page_alias() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.is_public THEN
          INSERT INTO public_page_aliases (alias_id, team_id, page_id)
          VALUES (NEW.alias_id, NEW.team_id, NEW.id)
          ON CONFLICT (team_id, page_id) DO UPDATE SET alias_id = EXCLUDED.alias_id;
        ELSE
          DELETE FROM public_page_aliases WHERE team_id = NEW.team_id AND page_id = NEW.id;
        END IF;
        RETURN NULL;
      END $$;

      CREATE TRIGGER pages_public_alias_insert AFTER INSERT ON pages
        FOR EACH ROW WHEN (NEW.is_public) EXECUTE FUNCTION sync_public_page_alias();
      -- Only a change of sharing or alias: most page updates set is_public to what it was.
      CREATE TRIGGER pages_public_alias_update AFTER UPDATE OF is_public, alias_id ON pages
        FOR EACH ROW WHEN (OLD.is_public IS DISTINCT FROM NEW.is_public OR OLD.alias_id IS DISTINCT FROM NEW.alias_id)
        EXECUTE FUNCTION sync_public_page_alias();

      INSERT INTO public_page_aliases (alias_id, team_id, page_id)
      SELECT alias_id, team_id, id FROM pages WHERE is_public;
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      DROP TRIGGER pages_public_alias_update ON pages;
      DROP TRIGGER pages_public_alias_insert ON pages;
      DROP FUNCTION sync_public_page_alias();
      DROP TABLE public_page_aliases;
    `);
  }
}
