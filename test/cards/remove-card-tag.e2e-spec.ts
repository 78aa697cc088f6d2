import { expectError } from '../support/expect-error';
import { useScene } from '../support/scene';
import { tagClient } from '../tags/tag-fixtures';
import { freshId, seedCardScene } from './card-fixtures';

describe('DELETE /v1/{team_id}/cards/{card_id}/tags/{tag_id}', () => {
  const s = useScene();
  const api = () => tagClient(s.t, s.ws);
  const etag = async (cardId: string) =>
    (await s.t.http.get(`/v1/${s.ws.teamId}/cards/${cardId}`).set('Authorization', s.ws.auth.owner).expect(200)).headers
      .etag;

  it("takes the tag off: 204 with the card's new ETag, the others keep their order, counts follow", async () => {
    const { cardId, usable } = await seedCardScene(s.t.app, s.ws);
    await api().attach(cardId, usable).expect(204);
    const before = await api().card(cardId);
    const res = await api().untag(cardId, usable[1], s.ws.auth.oauth).expect(204);
    expect(res.text).toBe('');
    expect(res.headers.etag).toBe(await etag(cardId));
    const after = await s.t.http.get(`/v1/${s.ws.teamId}/cards/${cardId}`).set('Authorization', s.ws.auth.owner);
    expect(after.body.card.tags.map((t: { id: string }) => t.id)).toEqual([usable[0], usable[2], usable[3]]);
    expect(after.body.card.time_updated).toBeGreaterThanOrEqual(before.time_updated);
    expect(after.body.card.user_updated).toEqual({
      user_id: s.ws.users.member,
      type: 'user',
      source: { type: 'oauth', client_id: 'client-42' },
    });
  });

  it("a tag of the workspace that is not on the card (another project's too) changes nothing: same ETag", async () => {
    const { cardId, usable, foreign } = await seedCardScene(s.t.app, s.ws);
    await api().attach(cardId, [usable[0]]).expect(204);
    const tag = await etag(cardId);
    const card = await api().card(cardId);
    for (const id of [usable[1], foreign, usable[1]]) {
      const res = await api().untag(cardId, id).expect(204);
      expect(res.headers.etag).toBe(tag);
    }
    expect(await api().card(cardId)).toEqual(card);
  });

  it('removing twice: the second is a no-op with the same ETag', async () => {
    const { cardId, usable } = await seedCardScene(s.t.app, s.ws);
    await api().attach(cardId, [usable[0]]).expect(204);
    const first = await api().untag(cardId, usable[0]).expect(204);
    const second = await api().untag(cardId, usable[0]).expect(204);
    expect(second.headers.etag).toBe(first.headers.etag);
  });

  it('guests remove from a card that lists them, not from others; viewers never', async () => {
    const listed = await seedCardScene(s.t.app, s.ws);
    const unlisted = await seedCardScene(s.t.app, s.ws, { guestIsMember: false });
    await api().attach(listed.cardId, [listed.usable[0]]).expect(204);
    await api().attach(unlisted.cardId, [unlisted.usable[0]]).expect(204);
    await api().untag(listed.cardId, listed.usable[0], s.ws.auth.guest).expect(204);
    expectError(await api().untag(unlisted.cardId, unlisted.usable[0], s.ws.auth.guest), 'ACCESS_DENIED');
    expectError(await api().untag(listed.cardId, listed.usable[1], s.ws.auth.viewer), 'ACCESS_DENIED');
    expectError(await api().untag(listed.cardId, listed.usable[1], s.other.auth.owner), 'ACCESS_DENIED');
    expect((await api().card(unlisted.cardId)).tags).toHaveLength(1);
  });

  it('404 CARD_NOT_FOUND, then 403 for a guest, then 404 TAG_NOT_FOUND; 400 for malformed ids', async () => {
    const { cardId } = await seedCardScene(s.t.app, s.ws, { guestIsMember: false });
    const unknownTag = `${freshId()}999`;
    expectError(await api().untag(`${freshId()}999`, unknownTag), 'CARD_NOT_FOUND');
    expectError(await api().untag('9999999999999999999', unknownTag), 'CARD_NOT_FOUND');
    expectError(await api().untag(cardId, unknownTag, s.ws.auth.guest), 'ACCESS_DENIED');
    expectError(await api().untag(cardId, unknownTag), 'TAG_NOT_FOUND', new RegExp(unknownTag));
    expectError(await api().untag(cardId, '9999999999999999999'), 'TAG_NOT_FOUND');
    expectError(await api().untag(cardId, 'x'), 'INVALID_PATH_PARAMETER');
    expectError(await api().untag('x', '1'), 'INVALID_PATH_PARAMETER');
    expectError(await s.t.http.delete(`/v1/${s.ws.teamId}/cards/${cardId}/tags/1`), 'UNAUTHENTICATED');
  });

  it('If-Match on the card: the current ETag removes, a stale one is 412 and removes nothing', async () => {
    const { cardId, usable } = await seedCardScene(s.t.app, s.ws);
    await api().attach(cardId, [usable[0], usable[1]]).expect(204);
    const current = await etag(cardId);
    const untag = (tagId: string, ifMatch: string) =>
      s.t.http
        .delete(`/v1/${s.ws.teamId}/cards/${cardId}/tags/${tagId}`)
        .set('Authorization', s.ws.auth.member)
        .set('If-Match', ifMatch);
    await untag(usable[0], current).expect(204);
    expectError(await untag(usable[1], current), 'PRECONDITION_FAILED');
    expect((await api().card(cardId)).tags.map((t) => t.id)).toEqual([usable[1]]);
  });

  it('Idempotency-Key: a repeat gets the kept 204 and ETag even after later changes', async () => {
    const { cardId, usable } = await seedCardScene(s.t.app, s.ws);
    await api().attach(cardId, [usable[0]]).expect(204);
    const untag = () =>
      s.t.http
        .delete(`/v1/${s.ws.teamId}/cards/${cardId}/tags/${usable[0]}`)
        .set('Authorization', s.ws.auth.member)
        .set('Idempotency-Key', `untag-${cardId}`);
    const first = await untag().expect(204);
    await api().attach(cardId, [usable[0]]).expect(204);
    const again = await untag().expect(204);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers.etag).toBe(first.headers.etag);
    expect((await api().card(cardId)).tags.map((t) => t.id)).toEqual([usable[0]]);
  });
});
