import { CollaborationTokens } from '../../src/pages/collaboration-tokens';
import { expectError } from '../support/expect-error';
import { useScene } from '../support/scene';
import { pageId, seedPages } from './page-fixtures';

describe('GET /v1/{team_id}/pages/{page_id}', () => {
  const s = useScene();
  const get = (id: string, auth = s.ws.auth.member, team = s.ws.teamId) =>
    s.t.http.get(`/v1/${team}/pages/${id}`).set('Authorization', auth);

  it('returns every field of the Page, for this caller', async () => {
    const [parent, id] = [pageId(), pageId()];
    await seedPages(s.t.app, s.ws, [
      { id: parent },
      {
        id,
        parent,
        title: 'Onboarding',
        font: 'serif',
        icon: { type: 'emoji', src: '📘' },
        members: [{ user_id: s.ws.users.guest, role: 'editor' }],
        bookmarked_by: [s.ws.users.member],
        watched_by: [s.ws.users.admin],
        comments: [
          { id: `c1-${id}`, user_id: s.ws.users.member, text: 'Nice' },
          { id: `c2-${id}`, user_id: s.ws.users.admin, text: 'Agreed' },
        ],
      },
    ]);
    const res = await get(id).expect(200);
    const importActor = { user_id: s.ws.users.owner, type: 'user', source: { type: 'import' } };
    expect(res.body).toEqual({
      page: {
        id,
        alias_id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
        title: 'Onboarding',
        font: 'serif',
        icon: { type: 'emoji', src: '📘' },
        content: '',
        schema: 1,
        collaboration: { token: expect.any(String) },
        project_id: s.ws.projectId,
        standalone: false,
        user_id: s.ws.users.owner,
        user_id_updated: s.ws.users.owner,
        user: importActor,
        user_updated: importActor,
        team_id: s.ws.teamId,
        time_created: expect.any(Number),
        time_updated: expect.any(Number),
        members: [{ user_id: s.ws.users.guest, assigned_date: expect.any(Number), role: 'editor' }],
        bookmarked: true,
        is_public: false,
        public_settings: { url: `http://localhost:3000/p/${res.body.page.alias_id}`, robots: [] },
        total_comments: 2,
        is_watching: false,
        is_bookmarked: true,
        hide_table_of_contents: false,
        hide_subpages: false,
        parent_page_id: parent,
        position: 0,
      },
    });
    expect(String(res.body.page.time_created)).toHaveLength(13);
    const asAdmin = (await get(id, s.ws.auth.admin).expect(200)).body.page;
    expect(asAdmin).toMatchObject({
      is_watching: true,
      is_bookmarked: false,
      bookmarked: false,
      alias_id: res.body.page.alias_id,
    });
  });

  it('carries a collaboration token signed for this page and this caller', async () => {
    const [id] = await seedPages(s.t.app, s.ws, [{}]);
    const { token } = (await get(id).expect(200)).body.page.collaboration;
    const claims = s.t.app.get(CollaborationTokens).verify(token);
    expect(claims).toMatchObject({ team_id: s.ws.teamId, page_id: id, user_id: s.ws.users.member });
    expect(s.t.app.get(CollaborationTokens).verify(`${token}x`)).toBeNull();
    const forAdmin = (await get(id, s.ws.auth.admin).expect(200)).body.page.collaboration.token;
    expect(s.t.app.get(CollaborationTokens).verify(forAdmin)).toMatchObject({ user_id: s.ws.users.admin });
  });

  it('shows a guest only pages that list them, and any page to a viewer', async () => {
    const [listed, unlisted] = await seedPages(s.t.app, s.ws, [{ members: [{ user_id: s.ws.users.guest }] }, {}]);
    await get(listed, s.ws.auth.guest).expect(200);
    expectError(await get(unlisted, s.ws.auth.guest), 'ACCESS_DENIED', 'You do not have access to this resource');
    await get(unlisted, s.ws.auth.viewer).expect(200);
  });

  it('answers 401, 403 for another workspace, 404 for nothing, 400 for a malformed id', async () => {
    const [id] = await seedPages(s.t.app, s.ws, [{}]);
    expectError(await s.t.http.get(`/v1/${s.ws.teamId}/pages/${id}`), 'UNAUTHENTICATED');
    expectError(await get(id, s.other.auth.owner), 'ACCESS_DENIED');
    expectError(await get('123456789012'), 'PAGE_NOT_FOUND', /123456789012/);
    expectError(await get('9223372036854775808'), 'PAGE_NOT_FOUND');
    expectError(await get('abc'), 'INVALID_PATH_PARAMETER', /page_id/);
    expectError(await get(id, s.ws.auth.member, 'no_such-team'), 'INVALID_TEAM_ID');
  });
});
