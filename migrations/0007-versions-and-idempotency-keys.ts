import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Versions and idempotency keys (decisions.md, "Conditional writes and safe retries").
 *
 * `version` counts the real changes of a template, page or card: the statement that changes the row
 * adds one, a write that changes nothing leaves it; ETags are made from it.
 *
 * `idempotency_keys` holds, per user and workspace, the keys of writes: while the first request with a
 * key runs, its `claim` (until `claimed_until`: a claim its process did not answer by then is dead and
 * may be taken over); once it succeeded, its answer (`status` and the row it was rendered from), kept
 * until `expires_at` (set by the claim, 24 hours on) and written by the statement that made the change.
 * `fingerprint` is the SHA-256 of the request's method, path and body. Keeping an answer changes no
 * indexed column, and pages keep room for the new row version (fillfactor), so it is a HOT update.
 */
export class VersionsAndIdempotencyKeys0000000000007 implements MigrationInterface {
  name = 'VersionsAndIdempotencyKeys0000000000007';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE note_templates ADD COLUMN version bigint NOT NULL DEFAULT 1;
      ALTER TABLE pages ADD COLUMN version bigint NOT NULL DEFAULT 1;
      ALTER TABLE cards ADD COLUMN version bigint NOT NULL DEFAULT 1;

      CREATE TABLE idempotency_keys (
        team_id       text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        user_id       text NOT NULL,
        key           text NOT NULL CHECK (key ~ '^[ -~]{1,255}$'),
        fingerprint   bytea NOT NULL CHECK (octet_length(fingerprint) = 32),
        claim         uuid,
        claimed_until timestamptz,
        status        smallint,
        answer        jsonb,
        expires_at    timestamptz NOT NULL,
        PRIMARY KEY (team_id, user_id, key),
        CHECK ((claim IS NULL) = (status IS NOT NULL))
      ) WITH (fillfactor = 70);
      CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at);
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      DROP TABLE idempotency_keys;
      ALTER TABLE cards DROP COLUMN version;
      ALTER TABLE pages DROP COLUMN version;
      ALTER TABLE note_templates DROP COLUMN version;
    `);
  }
}
