import { MigrationInterface, QueryRunner } from 'typeorm';

/** Tags (project_id NULL = workspace-wide), cards, their members and the card-tag table. */
export class CreateCards0000000000004 implements MigrationInterface {
  name = 'CreateCards0000000000004';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE tags (
        team_id      text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        id           bigint NOT NULL CHECK (id >= 0),
        project_id   text,
        name         text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 255),
        slug         text NOT NULL,
        color        text NOT NULL DEFAULT '',
        time_created timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (team_id, id),
        FOREIGN KEY (team_id, project_id) REFERENCES projects (team_id, id)
      );

      CREATE TABLE cards (
        team_id      text NOT NULL,
        id           bigint NOT NULL CHECK (id >= 0),
        project_id   text NOT NULL,
        title        text NOT NULL DEFAULT '',
        owner_id     text NOT NULL,
        created_by   jsonb NOT NULL,
        updated_by   jsonb NOT NULL,
        time_created timestamptz NOT NULL DEFAULT now(),
        time_updated timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (team_id, id),
        FOREIGN KEY (team_id, project_id) REFERENCES projects (team_id, id),
        FOREIGN KEY (team_id, owner_id) REFERENCES members (team_id, user_id)
      );

      CREATE TABLE card_members (
        team_id     text NOT NULL,
        card_id     bigint NOT NULL,
        user_id     text NOT NULL,
        assigned_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (team_id, card_id, user_id),
        FOREIGN KEY (team_id, card_id) REFERENCES cards (team_id, id) ON DELETE CASCADE,
        FOREIGN KEY (team_id, user_id) REFERENCES members (team_id, user_id) ON DELETE CASCADE
      );

      CREATE TABLE card_tags (
        team_id       text NOT NULL,
        card_id       bigint NOT NULL,
        tag_id        bigint NOT NULL,
        -- Gives "the order attached" without trusting clock resolution.
        attached_seq  bigint GENERATED ALWAYS AS IDENTITY,
        time_attached timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (team_id, card_id, tag_id),
        FOREIGN KEY (team_id, card_id) REFERENCES cards (team_id, id) ON DELETE CASCADE,
        FOREIGN KEY (team_id, tag_id) REFERENCES tags (team_id, id) ON DELETE CASCADE
      );
      CREATE INDEX card_tags_tag_idx ON card_tags (team_id, tag_id);
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE card_tags; DROP TABLE card_members; DROP TABLE cards; DROP TABLE tags;`);
  }
}
