import { Client } from 'pg';
import { AUTHENTICATE } from '../../src/auth/token-queries';
import { countStatements } from '../../support/statement-counter';
import { seedTemplate } from '../notes/note-template-fixtures';
import { expectError } from '../support/expect-error';
import { seedWorkspace, Workspace } from '../support/fixtures';
import { createTestApp, TestApp } from '../support/test-app';
import { testDatabaseUrl } from '../support/test-config';
import { waitFor, withDeadline } from '../support/wait-for';

/** The token lookup as countStatements records a statement: whitespace collapsed, cut at 100 characters. */
const LOOKUP = AUTHENTICATE.text.replace(/\s+/g, ' ').trim().slice(0, 100);

/** Token lookups this process sends to PostgreSQL while `work` runs (the app runs in this process). */
async function lookupsDuring(work: () => Promise<unknown>): Promise<number> {
  const { statements } = await countStatements(async () => void (await work()));
  return statements.filter((statement) => statement === LOOKUP).length;
}

/** A channel nobody else uses, for the markers of heardAllUpToNow. */
const MARKER_CHANNEL = 'token_cache_spec_marker';

/**
 * Resolves once `listener` (LISTENing on MARKER_CHANNEL) hears a marker sent now: PostgreSQL delivers
 * notifications in commit order, so by then it has heard every notification committed before.
 */
async function heardAllUpToNow(listener: Client): Promise<void> {
  const payload = `${process.pid}-${Date.now()}-${Math.random()}`;
  let onMarker: (message: { channel: string; payload?: string }) => void = () => undefined;
  const heard = new Promise<void>((resolve) => {
    onMarker = (message) => message.channel === MARKER_CHANNEL && message.payload === payload && resolve();
    listener.on('notification', onMarker);
  });
  try {
    await listener.query(`SELECT pg_notify($1, $2)`, [MARKER_CHANNEL, payload]);
    await withDeadline('the marker notification to come back', 10_000, heard);
  } finally {
    listener.off('notification', onMarker);
  }
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
  const onNotification = (message: { channel: string }) => message.channel === 'auth_changed' && heard.push(Date.now());
  listener.on('notification', onNotification);
  try {
    for (let attempt = 1; ; attempt++) {
      const start = Date.now();
      await prepare();
      const lookups = await lookupsDuring(work);
      await heardAllUpToNow(listener); // a notification committed during `work` has been heard by then
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
    // Entries outlive this file (10 min): whatever forgets one while it runs is a notification, not the TTL.
    t = await createTestApp({ TOKEN_CACHE_TTL_MS: '600000' });
    ws = await seedWorkspace(t.app);
    templateUrl = `/v1/${ws.teamId}/notes/templates/${await seedTemplate(t.app, ws)}`;
    elsewhere = new Client({ connectionString: testDatabaseUrl() });
    await elsewhere.connect();
    await elsewhere.query('LISTEN auth_changed');
    await elsewhere.query(`LISTEN ${MARKER_CHANNEL}`);
    // The listener connects after boot; until then every request looks its token up.
    await waitFor(
      'the token cache to go live (a request without a token lookup)',
      () => lookupsDuring(() => t.http.get(templateUrl).set('Authorization', ws.auth.member).expect(200)),
      (lookups) => lookups === 0,
    );
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
    await waitFor(
      'the revoked token to be refused',
      async () => (await get(ws.auth.agent)).status,
      (s) => s === 401,
    );
    expectError(await get(ws.auth.agent), 'UNAUTHENTICATED');
  });

  it('applies a role changed from another connection', async () => {
    await rename(ws.auth.member).expect(200);
    await elsewhere.query(`UPDATE members SET role = 'viewer' WHERE team_id = $1 AND user_id = $2`, [
      ws.teamId,
      ws.users.member,
    ]);
    const renamed = async () => (await rename(ws.auth.member)).status;
    await waitFor('the member made viewer to be refused a write', renamed, (status) => status === 403);
    await get(ws.auth.member).expect(200);
  });

  it('looks tokens up again after any change to tokens or members', async () => {
    await get(ws.auth.oauth).expect(200);
    await elsewhere.query(`UPDATE tokens SET name = name WHERE team_id = $1 AND id = 'tok-oauth'`, [ws.teamId]);
    await waitFor(
      'a request to look its token up again',
      () => lookupsDuring(() => get(ws.auth.oauth).expect(200)),
      (lookups) => lookups === 1,
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
