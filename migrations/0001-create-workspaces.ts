import { MigrationInterface, QueryRunner } from 'typeorm';

/** Workspaces, users, memberships with roles, and bearer tokens (hash only). */
export class CreateWorkspaces0000000000001 implements MigrationInterface {
  name = 'CreateWorkspaces0000000000001';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE workspaces (
        id           text PRIMARY KEY CHECK (id ~ '^[A-Za-z0-9]{1,64}$'),
        name         text NOT NULL DEFAULT '',
        time_created timestamptz NOT NULL DEFAULT now()
      );

      -- People exist across workspaces; a workspace sees a user only through its membership row.
      CREATE TABLE users (
        id           text PRIMARY KEY CHECK (char_length(id) BETWEEN 1 AND 64),
        name         text NOT NULL DEFAULT '',
        email        text,
        time_created timestamptz NOT NULL DEFAULT now()
      );

      CREATE TABLE members (
        team_id      text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        user_id      text NOT NULL REFERENCES users (id),
        role         text NOT NULL CHECK (role IN ('owner', 'admin', 'member', 'guest', 'viewer')),
        time_created timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (team_id, user_id)
      );

      CREATE TABLE tokens (
        team_id      text NOT NULL,
        id           text NOT NULL CHECK (char_length(id) BETWEEN 1 AND 64),
        user_id      text NOT NULL,
        token_hash   bytea NOT NULL CHECK (octet_length(token_hash) = 32),
        name         text,
        actor        jsonb NOT NULL DEFAULT '{"type": "user"}',
        expires_at   timestamptz,
        revoked_at   timestamptz,
        time_created timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (team_id, id),
        FOREIGN KEY (team_id, user_id) REFERENCES members (team_id, user_id) ON DELETE CASCADE
      );
      -- Authentication looks a token up by the SHA-256 of its secret, never by comparing secrets.
      CREATE UNIQUE INDEX tokens_token_hash_key ON tokens (token_hash);
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE tokens; DROP TABLE members; DROP TABLE users; DROP TABLE workspaces;`);
  }
}
