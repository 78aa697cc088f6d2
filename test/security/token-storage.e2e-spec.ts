import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { TokensService } from '../../src/auth/tokens.service';
import { expectError } from '../support/expect-error';
import { seedWorkspace, Workspace } from '../support/fixtures';
import { createTestApp, TestApp } from '../support/test-app';

const sha256 = (secret: string) => createHash('sha256').update(secret, 'utf8').digest();

/**
 * Tokens are found by the SHA-256 of the presented secret, never by comparing secrets: the database
 * holds no secret in any form, the stored hash is exactly SHA-256, anything hashing to it is the
 * token and nothing else is. (Structural checks only: speed is never a timed assertion here.)
 */
describe('token storage and lookup', () => {
  let t: TestApp;
  let ws: Workspace;
  let db: DataSource;
  /** Every secret issued in this file, by how it was issued. */
  const secrets: Array<{ id: string; secret: string }> = [];
  /** A page that does not exist: 404 once the token is accepted, 401 otherwise. */
  const getWith = (secret: string) => t.http.get(`/v1/${ws.teamId}/pages/1`).set('Authorization', `Bearer ${secret}`);

  beforeAll(async () => {
    t = await createTestApp();
    db = t.app.get(DataSource);
    // Imported tokens (plaintext in the import document) ...
    ws = await seedWorkspace(t.app);
    for (const [name, auth] of Object.entries(ws.auth))
      secrets.push({ id: `tok-${name}`, secret: auth.replace(/^Bearer /, '') });
    // ... and issued ones: live, expired and revoked.
    const tokens = t.app.get(TokensService);
    for (const expiresAt of [null, new Date(Date.now() + 60_000), new Date(Date.now() - 60_000)]) {
      const issued = await tokens.create({ teamId: ws.teamId, userId: ws.users.member, expiresAt });
      secrets.push({ id: issued.id, secret: issued.token });
    }
    const revoked = await tokens.create({ teamId: ws.teamId, userId: ws.users.member });
    await tokens.revoke(revoked.id, ws.teamId);
    secrets.push({ id: revoked.id, secret: revoked.token });
  });
  afterAll(() => t.close());

  /** The forms a stored secret could take: as text, as the hex or base64 of its bytes. */
  const forms = (secret: string) => [
    secret,
    Buffer.from(secret).toString('hex'),
    Buffer.from(secret).toString('base64'),
  ];

  it('keeps no secret in any column of the tokens table', async () => {
    const rows: Array<{ row: string }> = await db.query(
      `SELECT row_to_json(t)::text AS row FROM tokens t WHERE team_id = $1`,
      [ws.teamId],
    );
    expect(rows).toHaveLength(secrets.length);
    for (const { secret } of secrets)
      for (const form of forms(secret)) expect(rows.filter(({ row }) => row.includes(form))).toEqual([]);
  });

  it('keeps no secret anywhere in the database', async () => {
    const tables: Array<{ name: string }> = await db.query(
      `SELECT quote_ident(table_name) AS name FROM information_schema.tables
        WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
    );
    expect(tables.map((r) => r.name)).toEqual(expect.arrayContaining(['tokens', 'members', 'pages']));
    for (const { name } of tables) {
      const rows: Array<{ row: string }> = await db.query(`SELECT row_to_json(x)::text AS row FROM ${name} x`);
      for (const { secret } of secrets)
        for (const form of forms(secret))
          expect([name, rows.some(({ row }) => row.includes(form))]).toEqual([name, false]);
    }
  });

  it('stores exactly the SHA-256 of each secret, under a unique index', async () => {
    for (const { id, secret } of secrets) {
      const [row] = await db.query(`SELECT token_hash FROM tokens WHERE team_id = $1 AND id = $2`, [ws.teamId, id]);
      expect([id, (row.token_hash as Buffer).toString('hex')]).toEqual([id, sha256(secret).toString('hex')]);
    }
    const columns: Array<{ column_name: string }> = await db.query(
      `SELECT column_name FROM information_schema.columns
        WHERE table_schema = 'public' AND table_name = 'tokens' ORDER BY column_name`,
    );
    expect(columns.map((c) => c.column_name)).not.toContain('token');
    expect(columns.map((c) => c.column_name)).not.toContain('secret');
    const [index] = await db.query(
      `SELECT indexdef FROM pg_indexes WHERE tablename = 'tokens' AND indexdef LIKE '%(token_hash)%'`,
    );
    expect(index.indexdef).toMatch(/^CREATE UNIQUE INDEX/);
  });

  it('accepts any secret whose SHA-256 is stored, and not the stored hash itself', async () => {
    const chosen = `chosen-${ws.teamId}-secret`;
    await db.query(`INSERT INTO tokens (team_id, id, user_id, token_hash) VALUES ($1, 'tok-by-hash', $2, $3)`, [
      ws.teamId,
      ws.users.member,
      sha256(chosen),
    ]);
    expectError(await getWith(chosen), 'PAGE_NOT_FOUND');
    for (const stolen of [sha256(chosen).toString('hex'), sha256(chosen).toString('base64')]) {
      const res = await getWith(stolen);
      expectError(res, 'UNAUTHENTICATED');
    }
  });

  it('rejects a secret that is right but for its last character, or for one character more or less', async () => {
    const { secret } = secrets.find((s) => s.id.startsWith('tok_'))!;
    expectError(await getWith(secret), 'PAGE_NOT_FOUND');
    const last = secret.at(-1)!;
    const near = [
      ...['A', 'b', '0', '_', '-'].filter((c) => c !== last).map((c) => secret.slice(0, -1) + c),
      secret.slice(0, -1),
      `${secret}A`,
      secret.slice(0, -1) + (last === last.toUpperCase() ? last.toLowerCase() : last.toUpperCase()),
    ].filter((candidate) => candidate !== secret);
    // 6 or 7 near misses: a last character of 0, _ or - has no other case and is in the list above.
    expect(near.length).toBeGreaterThanOrEqual(6);
    for (const candidate of near) {
      const res = await getWith(candidate);
      expectError(res, 'UNAUTHENTICATED');
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    }
  });
});
