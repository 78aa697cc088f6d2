import { expectError } from '../support/expect-error';
import { useScene } from '../support/scene';
import { seedTemplate } from './note-template-fixtures';

describe('GET /v1/{team_id}/notes/templates/{template_id}', () => {
  const s = useScene();

  const get = (id: string, auth: string, team = s.ws.teamId) =>
    s.t.http.get(`/v1/${team}/notes/templates/${id}`).set('Authorization', auth);

  it('shows the owner every field, with is_favourited for the caller', async () => {
    const id = await seedTemplate(s.t.app, s.ws, {
      icon: { type: 'image', src: 'https://example.com/i.png', blurhash: 'LKO2?U%2Tw=w' },
      favourited_by: [s.ws.users.member],
      ai_actions: true,
    });
    const res = await get(id, s.ws.auth.member).expect(200);
    const importActor = { user_id: s.ws.users.member, type: 'user', source: { type: 'import' } };
    expect(res.body).toEqual({
      note_template: {
        id,
        title: 'Standup',
        context: 'Summarise the standup',
        sections: [{ title: 'Yesterday', description: 'What got done' }],
        ai_actions: true,
        icon: { type: 'image', src: 'https://example.com/i.png', blurhash: 'LKO2?U%2Tw=w' },
        user: importActor,
        user_updated: importActor,
        time_created: expect.any(Number),
        time_updated: expect.any(Number),
        is_shared: false,
        is_favourited: true,
      },
    });
    expect(Math.abs(res.body.note_template.time_created - Date.now())).toBeLessThan(60_000);
  });

  it('shows shared and built-in templates to every member, favourites per caller', async () => {
    const shared = await seedTemplate(s.t.app, s.ws, {
      owner_id: s.ws.users.admin,
      is_shared: true,
      favourited_by: [s.ws.users.admin],
    });
    const builtIn = await seedTemplate(s.t.app, s.ws, { owner_id: null });
    for (const auth of [s.ws.auth.member, s.ws.auth.viewer, s.ws.auth.guest]) {
      expect((await get(shared, auth).expect(200)).body.note_template.is_favourited).toBe(false);
      expect((await get(builtIn, auth).expect(200)).body.note_template.user).toEqual({ type: 'system' });
    }
    expect((await get(shared, s.ws.auth.admin).expect(200)).body.note_template.is_favourited).toBe(true);
  });

  it("refuses someone else's private template with 403", async () => {
    const id = await seedTemplate(s.t.app, s.ws, { owner_id: s.ws.users.admin });
    expectError(await get(id, s.ws.auth.member), 'ACCESS_DENIED', 'You do not have access to this resource');
    await get(id, s.ws.auth.admin).expect(200);
  });

  it('refuses a token of another workspace with 403, and 401 without a token', async () => {
    const id = await seedTemplate(s.t.app, s.ws, { is_shared: true });
    expectError(await get(id, s.other.auth.owner), 'ACCESS_DENIED');
    expectError(await s.t.http.get(`/v1/${s.ws.teamId}/notes/templates/${id}`), 'UNAUTHENTICATED');
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    expectError(await get('missing', s.ws.auth.member), 'NOTE_TEMPLATE_NOT_FOUND', 'missing');
    expectError(await get('bad.id', s.ws.auth.member), 'INVALID_PATH_PARAMETER', /template_id/);
  });
});
