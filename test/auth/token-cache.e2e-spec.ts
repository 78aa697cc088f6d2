import { Client } from 'pg';
import { AUTHENTICATE } from '../../src/auth/token-queries';
import { countStatements } from '../../support/statement-counter';
import { seedTemplate } from '../notes/note-template-fixtures';
import { expectError } from '../support/expect-error';
import { seedWorkspace, Workspace } from '../support/fixtures';
import { createTestApp, TestApp } from '../support/test-app';
import { testDatabaseUrl } from '../support/test-config';

/** The token lookup as countStatements records a statement: whitespace collapsed, cut at 100 characters. */
const LOOKUP = AUTHENTICATE.text.replace(/\s+/g, ' ').trim().slice(0, 100);

/** Token lookups this process sends to PostgreSQL while `work` runs (the app runs in this process). */
async function lookupsDuring(work: () => Promise<unknown>): Promise<number> {
  const { statements } = await countStatements(async () => void (await work()));
  return statements.filter((statement) => statement === LOOKUP).length;
}

/**
 * Polls `attempt` until it returns true, for at most `ms` (well under the 10 s TTL: success means the
 * notification did it).
 */
async function within(ms: number, attempt: () => Promise<boolean>): Promise<boolean> {
  const deadline = Date.now() + ms;
  do {
    if (await attempt()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  } while (Date.now() < deadline);
  return false;
}

/**
 * Other spec files share the database, and their seeding changes tokens and members, so notifications
 * empty the cache at any time. Runs `prepare` then `work` until no notification came near them (at
 * most ten times), as seen on `listener`, which LISTENs on auth_changed; returns the lookups of that
 * last `work`.
 */
async function lookupsWhileNothingChanges(
  listener: Client,
  prepare: () => Promise<unknown>,
  work: () => Promise<unknown>,
): Promise<number> {
  const MARGIN_MS = 100;
  const heard: number[] = [];
  const onNotification = () => heard.push(Date.now());
  listener.on('notification', onNotification);
  try {
    for (let attempt = 1; ; attempt++) {
      const start = Date.now();
      await prepare();
      const lookups = await lookupsDuring(work);
      await new Promise((resolve) => setTimeout(resolve, MARGIN_MS));
      const quiet = !heard.some((at) => at >= start - MARGIN_MS);
      if (quiet || attempt === 10) return lookups;
    }
  } finally {
    listener.off('notification', onNotification);
  }
}

describe('token lookups are remembered until tokens or members change', () => {
  let t: TestApp;
  let ws: Workspace;
  /** A template of the member, which the member's tokens (user, OAuth app, agent) read. */
  let templateUrl: string;
  /** Another connection, as another instance or the CLI would change things. */
  let elsewhere: Client;
  beforeAll(async () => {
    t = await createTestApp();
    ws = await seedWorkspace(t.app);
    templateUrl = `/v1/${ws.teamId}/notes/templates/${await seedTemplate(t.app, ws)}`;
    elsewhere = new Client({ connectionString: testDatabaseUrl() });
    await elsewhere.connect();
    await elsewhere.query('LISTEN auth_changed');
    // The listener connects after boot; until then every request looks its token up.
    const served = await within(
      5000,
      async () =>
        (await lookupsDuring(() => t.http.get(templateUrl).set('Authorization', ws.auth.member).expect(200))) === 0,
    );
    if (!served) throw new Error('the token cache never went live');
  });
  afterAll(async () => {
    await elsewhere.end();
    await t.close();
  });

  const get = (auth: string) => t.http.get(templateUrl).set('Authorization', auth);
  const rename = (auth: string) =>
    t.http
      .patch(templateUrl)
      .set('Authorization', auth)
      .send({ title: `Renamed ${Date.now()}` });

  it('looks a token up once, then answers from memory', async () => {
    const lookups = await lookupsWhileNothingChanges(
      elsewhere,
      () => get(ws.auth.oauth).expect(200),
      async () => {
        for (let i = 0; i < 5; i++) await get(ws.auth.oauth).expect(200);
      },
    );
    expect(lookups).toBe(0);
  });

  it('never remembers an unknown token', async () => {
    expect(
      await lookupsDuring(async () => {
        for (let i = 0; i < 3; i++) expectError(await get('Bearer no-such-token'), 'UNAUTHENTICATED');
      }),
    ).toBe(3);
  });

  it('forgets a token revoked from another connection as soon as that commits', async () => {
    await get(ws.auth.agent).expect(200);
    await elsewhere.query(`UPDATE tokens SET revoked_at = now() WHERE team_id = $1 AND id = 'tok-agent'`, [ws.teamId]);
    expect(await within(2000, async () => (await get(ws.auth.agent)).status === 401)).toBe(true);
    expectError(await get(ws.auth.agent), 'UNAUTHENTICATED');
  });

  it('applies a role changed from another connection', async () => {
    await rename(ws.auth.member).expect(200);
    await elsewhere.query(`UPDATE members SET role = 'viewer' WHERE team_id = $1 AND user_id = $2`, [
      ws.teamId,
      ws.users.member,
    ]);
    expect(await within(2000, async () => (await rename(ws.auth.member)).status === 403)).toBe(true);
    await get(ws.auth.member).expect(200);
  });

  it('looks tokens up again after any change to tokens or members', async () => {
    await get(ws.auth.oauth).expect(200);
    await elsewhere.query(`UPDATE tokens SET name = name WHERE team_id = $1 AND id = 'tok-oauth'`, [ws.teamId]);
    expect(await within(2000, async () => (await lookupsDuring(() => get(ws.auth.oauth).expect(200))) === 1)).toBe(
      true,
    );
  });
});

describe('with TOKEN_CACHE_TTL_MS=0', () => {
  let t: TestApp;
  let ws: Workspace;
  beforeAll(async () => {
    t = await createTestApp({ TOKEN_CACHE_TTL_MS: '0' });
    ws = await seedWorkspace(t.app);
  });
  afterAll(() => t.close());

  it('looks the token up on every request', async () => {
    const url = `/v1/${ws.teamId}/notes/templates/${await seedTemplate(t.app, ws)}`;
    await t.http.get(url).set('Authorization', ws.auth.member).expect(200);
    expect(
      await lookupsDuring(async () => {
        for (let i = 0; i < 3; i++) await t.http.get(url).set('Authorization', ws.auth.member).expect(200);
      }),
    ).toBe(3);
  });
});
