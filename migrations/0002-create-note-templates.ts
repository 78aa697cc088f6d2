import { MigrationInterface, QueryRunner } from 'typeorm';

/** Note templates (owner_id NULL = built-in) and who favourited them. */
export class CreateNoteTemplates0000000000002 implements MigrationInterface {
  name = 'CreateNoteTemplates0000000000002';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE note_templates (
        team_id      text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        id           text NOT NULL CHECK (id ~ '^[A-Za-z0-9_-]{1,64}$'),
        owner_id     text,
        title        text NOT NULL CHECK (char_length(title) BETWEEN 1 AND 255),
        context      text NOT NULL DEFAULT '' CHECK (char_length(context) <= 102400),
        sections     jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(sections) = 'array'),
        ai_actions   boolean NOT NULL DEFAULT false,
        is_shared    boolean NOT NULL DEFAULT false,
        icon         jsonb,
        created_by   jsonb NOT NULL,
        updated_by   jsonb NOT NULL,
        time_created timestamptz NOT NULL DEFAULT now(),
        time_updated timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (team_id, id),
        FOREIGN KEY (team_id, owner_id) REFERENCES members (team_id, user_id)
      );

      CREATE TABLE note_template_favourites (
        team_id     text NOT NULL,
        template_id text NOT NULL,
        user_id     text NOT NULL,
        PRIMARY KEY (team_id, template_id, user_id),
        FOREIGN KEY (team_id, template_id) REFERENCES note_templates (team_id, id) ON DELETE CASCADE,
        FOREIGN KEY (team_id, user_id) REFERENCES members (team_id, user_id) ON DELETE CASCADE
      );
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE note_template_favourites; DROP TABLE note_templates;`);
  }
}
