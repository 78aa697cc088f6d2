import { TokensService } from '../../src/auth/tokens.service';
import { createTestApp, TestApp } from '../support/test-app';
import { expectError } from '../support/expect-error';
import { importDocument, seedWorkspace, Workspace } from '../support/fixtures';
import { seedTemplate } from '../notes/note-template-fixtures';

describe('bearer tokens', () => {
  let t: TestApp;
  let ws: Workspace;
  let templateUrl: string;
  beforeAll(async () => {
    t = await createTestApp();
    ws = await seedWorkspace(t.app);
    templateUrl = `/v1/${ws.teamId}/notes/templates/${await seedTemplate(t.app, ws)}`;
  });
  afterAll(() => t.close());

  const tokens = () => t.app.get(TokensService);
  const getWith = (secret: string) => t.http.get(templateUrl).set('Authorization', `Bearer ${secret}`);

  it('issues a random token that works, then stops working once revoked', async () => {
    const issued = await tokens().create({ teamId: ws.teamId, userId: ws.users.member, name: 'ci' });
    expect(issued).toMatchObject({ team_id: ws.teamId, user_id: ws.users.member, name: 'ci', expires_at: null });
    expect(Buffer.from(issued.token.replace(/^wca_/, ''), 'base64url').length).toBeGreaterThanOrEqual(16);
    await getWith(issued.token).expect(200);

    expect(await tokens().revoke(issued.id)).toBe(1);
    expectError(await getWith(issued.token), 'UNAUTHENTICATED', /revoked/);
  });

  it('stops accepting a token once it expires', async () => {
    const expired = await tokens().create({
      teamId: ws.teamId,
      userId: ws.users.member,
      expiresAt: new Date(Date.now() - 1000),
    });
    expectError(await getWith(expired.token), 'UNAUTHENTICATED');
    const live = await tokens().create({
      teamId: ws.teamId,
      userId: ws.users.member,
      expiresAt: new Date(Date.now() + 60_000),
    });
    await getWith(live.token).expect(200);
  });

  it('honours revoked and expired tokens from an import', async () => {
    await importDocument(t.app, {
      tokens: [
        {
          id: 'tok-revoked',
          team_id: ws.teamId,
          user_id: ws.users.member,
          token: `revoked-${ws.teamId}`,
          expires_at: null,
          revoked: true,
          actor: { type: 'user' },
        },
        {
          id: 'tok-expired',
          team_id: ws.teamId,
          user_id: ws.users.member,
          token: `expired-${ws.teamId}`,
          expires_at: Date.now() - 1000,
          actor: { type: 'user' },
        },
      ],
    });
    expectError(await getWith(`revoked-${ws.teamId}`), 'UNAUTHENTICATED');
    expectError(await getWith(`expired-${ws.teamId}`), 'UNAUTHENTICATED');
  });

  it('says the token is unknown when only part of it is right', async () => {
    const issued = await tokens().create({ teamId: ws.teamId, userId: ws.users.member });
    expectError(await getWith(issued.token.slice(0, -1)), 'UNAUTHENTICATED');
    expectError(await getWith(`${issued.token}x`), 'UNAUTHENTICATED');
  });

  it('accepts the token only in the Authorization header, not in the query string', async () => {
    const issued = await tokens().create({ teamId: ws.teamId, userId: ws.users.member });
    expectError(await t.http.get(`${templateUrl}?access_token=${issued.token}`), 'UNAUTHENTICATED');
  });

  it('reports an unknown token id on revoke', async () => {
    expect(await tokens().revoke('tok_does_not_exist')).toBe(0);
  });
});
