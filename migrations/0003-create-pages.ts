import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Projects and their page trees. Order among siblings is a fractional sort key (text, byte order),
 * so moving one page rewrites one row. The root of an archived subtree leaves the tree (no parent,
 * no sort key) and its page_archives row remembers where it was.
 */
export class CreatePages0000000000003 implements MigrationInterface {
  name = 'CreatePages0000000000003';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE projects (
        team_id      text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        id           text NOT NULL CHECK (id ~ '^[A-Za-z0-9_-]{1,64}$'),
        title        text NOT NULL DEFAULT '',
        time_created timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (team_id, id)
      );

      CREATE TABLE pages (
        team_id                text NOT NULL,
        id                     bigint NOT NULL CHECK (id >= 0),
        project_id             text NOT NULL,
        parent_id              bigint,
        sort_key               text COLLATE "C",
        alias_id               uuid NOT NULL DEFAULT gen_random_uuid(),
        title                  text NOT NULL DEFAULT '' CHECK (char_length(title) <= 255),
        font                   text NOT NULL DEFAULT 'sans' CHECK (font IN ('sans', 'serif', 'mono')),
        icon                   jsonb,
        cover_image            jsonb,
        content                text NOT NULL DEFAULT '',
        schema                 integer NOT NULL DEFAULT 1,
        standalone             boolean NOT NULL DEFAULT false,
        owner_id               text NOT NULL,
        created_by             jsonb NOT NULL,
        updated_by             jsonb NOT NULL,
        is_public              boolean NOT NULL DEFAULT false,
        public_url             text,
        public_robots          text[] NOT NULL DEFAULT '{}',
        hide_table_of_contents boolean NOT NULL DEFAULT false,
        hide_subpages          boolean NOT NULL DEFAULT false,
        time_created           timestamptz NOT NULL DEFAULT now(),
        time_updated           timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (team_id, id),
        UNIQUE (team_id, alias_id),
        CHECK (parent_id IS DISTINCT FROM id),
        FOREIGN KEY (team_id, project_id) REFERENCES projects (team_id, id),
        FOREIGN KEY (team_id, parent_id) REFERENCES pages (team_id, id),
        FOREIGN KEY (team_id, owner_id) REFERENCES members (team_id, user_id)
      );
      -- The active siblings of one parent (-1 stands for the project root) in order; unique, so two
      -- siblings can never share a place. Positions are ranks in this index.
      CREATE UNIQUE INDEX pages_sibling_order_key
          ON pages (team_id, project_id, (COALESCE(parent_id, -1)), sort_key) INCLUDE (parent_id, id)
       WHERE sort_key IS NOT NULL;
      -- Keeps the visibility map fresh, so rank counts over that index stay index-only scans.
      ALTER TABLE pages SET (autovacuum_vacuum_scale_factor = 0.01, autovacuum_analyze_scale_factor = 0.02);
      CREATE INDEX pages_parent_idx ON pages (team_id, parent_id);

      CREATE TABLE page_archives (
        team_id         text NOT NULL,
        page_id         bigint NOT NULL,
        archive_root_id bigint NOT NULL,
        former_parent_id bigint,
        archived_by     text NOT NULL,
        time_archived   timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (team_id, page_id),
        FOREIGN KEY (team_id, page_id) REFERENCES pages (team_id, id) ON DELETE CASCADE,
        FOREIGN KEY (team_id, archive_root_id) REFERENCES pages (team_id, id) ON DELETE CASCADE
      );
      CREATE INDEX page_archives_root_idx ON page_archives (team_id, archive_root_id);

      CREATE TABLE page_members (
        team_id     text NOT NULL,
        page_id     bigint NOT NULL,
        user_id     text NOT NULL,
        role        text NOT NULL DEFAULT 'member' CHECK (char_length(role) BETWEEN 1 AND 32),
        assigned_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (team_id, page_id, user_id),
        FOREIGN KEY (team_id, page_id) REFERENCES pages (team_id, id) ON DELETE CASCADE,
        FOREIGN KEY (team_id, user_id) REFERENCES members (team_id, user_id) ON DELETE CASCADE
      );

      CREATE TABLE page_bookmarks (
        team_id text NOT NULL,
        page_id bigint NOT NULL,
        user_id text NOT NULL,
        PRIMARY KEY (team_id, page_id, user_id),
        FOREIGN KEY (team_id, page_id) REFERENCES pages (team_id, id) ON DELETE CASCADE,
        FOREIGN KEY (team_id, user_id) REFERENCES members (team_id, user_id) ON DELETE CASCADE
      );

      CREATE TABLE page_watchers (
        team_id text NOT NULL,
        page_id bigint NOT NULL,
        user_id text NOT NULL,
        PRIMARY KEY (team_id, page_id, user_id),
        FOREIGN KEY (team_id, page_id) REFERENCES pages (team_id, id) ON DELETE CASCADE,
        FOREIGN KEY (team_id, user_id) REFERENCES members (team_id, user_id) ON DELETE CASCADE
      );

      CREATE TABLE page_comments (
        team_id      text NOT NULL,
        id           text NOT NULL,
        page_id      bigint NOT NULL,
        user_id      text NOT NULL,
        text         text NOT NULL DEFAULT '',
        time_created timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (team_id, id),
        FOREIGN KEY (team_id, page_id) REFERENCES pages (team_id, id) ON DELETE CASCADE,
        FOREIGN KEY (team_id, user_id) REFERENCES members (team_id, user_id)
      );
      CREATE INDEX page_comments_page_idx ON page_comments (team_id, page_id);
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      DROP TABLE page_comments; DROP TABLE page_watchers; DROP TABLE page_bookmarks; DROP TABLE page_members;
      DROP TABLE page_archives; DROP TABLE pages; DROP TABLE projects;
    `);
  }
}
