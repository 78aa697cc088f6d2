import { expectError } from '../support/expect-error';
import { useScene } from '../support/scene';
import { importDocument } from '../support/fixtures';
import { freshId, seedCardScene } from './card-fixtures';

describe('GET /v1/{team_id}/cards/{card_id}', () => {
  const s = useScene();

  const get = (cardId: string, auth = s.ws.auth.member, team = s.ws.teamId) =>
    s.t.http.get(`/v1/${team}/cards/${cardId}`).set('Authorization', auth);

  it('returns every field of the card and its tags in the order attached, with exact total_cards', async () => {
    const { cardId, usable } = await seedCardScene(s.t.app, s.ws);
    const second = freshId();
    await importDocument(s.t.app, {
      cards: [
        {
          team_id: s.ws.teamId,
          id: second,
          project_id: s.ws.projectId,
          title: 'Second',
          owner_id: s.ws.users.owner,
          members: [],
          tags: [usable[3]],
        },
      ],
    });
    await s.t.http
      .post(`/v1/${s.ws.teamId}/cards/${cardId}/tags`)
      .set('Authorization', s.ws.auth.member)
      .send({ ids: [usable[3], usable[0]] })
      .expect(204);

    const res = await get(cardId).expect(200);
    const importActor = { user_id: s.ws.users.owner, type: 'user', source: { type: 'import' } };
    expect(res.body).toEqual({
      card: {
        id: cardId,
        team_id: s.ws.teamId,
        project_id: s.ws.projectId,
        title: 'Fix login',
        owner_id: s.ws.users.owner,
        members: [
          { user_id: expect.any(String), assigned_date: expect.any(Number) },
          { user_id: expect.any(String), assigned_date: expect.any(Number) },
        ],
        time_created: expect.any(Number),
        time_updated: expect.any(Number),
        user: importActor,
        user_updated: { user_id: s.ws.users.member, type: 'user' },
        tags: [
          {
            id: usable[3],
            team_id: s.ws.teamId,
            project_id: s.ws.projectId,
            name: `Tag ${usable[3]}`,
            slug: `tag-${usable[3]}`,
            color: 'red',
            total_cards: 2,
          },
          {
            id: usable[0],
            team_id: s.ws.teamId,
            project_id: null,
            name: `Tag ${usable[0]}`,
            slug: `tag-${usable[0]}`,
            color: 'red',
            total_cards: 1,
          },
        ],
      },
    });
    expect(res.body.card.members.map((m: { user_id: string }) => m.user_id).sort()).toEqual(
      [s.ws.users.guest, s.ws.users.owner].sort(),
    );
    expect(String(res.body.card.time_created)).toHaveLength(13);
  });

  it('shows a viewer any card and a guest only cards that list them', async () => {
    const listed = await seedCardScene(s.t.app, s.ws);
    const unlisted = await seedCardScene(s.t.app, s.ws, { guestIsMember: false });
    await get(listed.cardId, s.ws.auth.viewer).expect(200);
    await get(listed.cardId, s.ws.auth.guest).expect(200);
    expectError(await get(unlisted.cardId, s.ws.auth.guest), 'ACCESS_DENIED');
  });

  it('answers 401, 403 for another workspace, 404 for nothing, 400 for a malformed id', async () => {
    const { cardId } = await seedCardScene(s.t.app, s.ws);
    expectError(await s.t.http.get(`/v1/${s.ws.teamId}/cards/${cardId}`), 'UNAUTHENTICATED');
    expectError(await get(cardId, s.other.auth.owner), 'ACCESS_DENIED');
    expectError(await get('77777777777'), 'CARD_NOT_FOUND', '77777777777');
    expectError(await get('9223372036854775808'), 'CARD_NOT_FOUND');
    expectError(await get('-1'), 'INVALID_PATH_PARAMETER', /card_id/);
  });
});
