import { DataSource } from 'typeorm';
import { seedCardScene } from '../cards/card-fixtures';
import { seedWorkspace } from '../support/fixtures';
import { TestApp } from '../support/test-app';
import { Receiver, verify } from '../webhooks/receiver';
import { ofTeam, startAppAndReceiver, stopAppAndReceiver, subscribe } from '../webhooks/webhook-fixtures';
import { freshName, tagClient } from './tag-fixtures';

describe('Tag events (e2e, a real receiver on loopback, verified with standardwebhooks)', () => {
  let t: TestApp;
  let receiver: Receiver;

  beforeAll(async () => ({ t, receiver } = await startAppAndReceiver()));
  afterAll(() => stopAppAndReceiver(t, receiver));

  const stored = (teamId: string) =>
    t.app.get(DataSource).query<unknown[]>(`SELECT type FROM webhook_events WHERE team_id = $1`, [teamId]);

  it('tag.created, tag.updated with changed, card.tags_removed, tag.deleted with the cards it left', async () => {
    const ws = await seedWorkspace(t.app);
    const { secret } = await subscribe(t, ws, receiver.url);
    const api = tagClient(t, ws);
    const scene = await seedCardScene(t.app, ws);
    const created = (await api.create({ name: freshName(), color: 'red' }, ws.auth.agent).expect(201)).body.tag;
    const name = freshName('Renamed');
    const updated = (await api.update(created.id, { name }).expect(200)).body.tag;
    await api.update(created.id, { name }).expect(200); // no change: no event
    await api.attach(scene.cardId, [scene.usable[0], created.id]).expect(204);
    await api.untag(scene.cardId, scene.usable[0]).expect(204);
    await api.untag(scene.cardId, scene.usable[0]).expect(204); // not on the card: no event
    await api.remove(created.id, ws.auth.owner).expect(204);

    const events = await receiver.waitFor(5, ofTeam(ws));
    // Events are stored with their change: the outbox holds every one there will ever be.
    expect(await stored(ws.teamId)).toHaveLength(5);
    for (const event of events) expect(verify(secret, event)).toEqual(event.event);
    const byType = Object.fromEntries(events.map((e) => [e.event.type, e.event.data]));
    expect(Object.keys(byType).sort()).toEqual([
      'card.tags_added',
      'card.tags_removed',
      'tag.created',
      'tag.deleted',
      'tag.updated',
    ]);
    expect(byType['tag.created']).toEqual({
      team_id: ws.teamId,
      actor: { type: 'robot', user_id: ws.users.member, source: expect.objectContaining({ type: 'agent' }) },
      tag: created,
    });
    expect(byType['tag.updated']).toEqual({
      team_id: ws.teamId,
      actor: { type: 'user', user_id: ws.users.member },
      changed: ['name', 'slug'],
      tag: updated,
    });
    expect(byType['card.tags_removed']).toEqual({
      team_id: ws.teamId,
      actor: { type: 'user', user_id: ws.users.member },
      card_id: scene.cardId,
      tag_ids: [scene.usable[0]],
    });
    expect(byType['tag.deleted']).toEqual({
      team_id: ws.teamId,
      actor: { type: 'user', user_id: ws.users.owner },
      tag_id: created.id,
      card_ids: [scene.cardId],
    });
  });

  it('nothing for refused writes: a taken name, a stale If-Match, a guest', async () => {
    const ws = await seedWorkspace(t.app);
    await subscribe(t, ws, receiver.url);
    const api = tagClient(t, ws);
    const name = freshName();
    const tag = (await api.create({ name, color: 'red' }).expect(201)).body.tag;
    await api.create({ name: name.toUpperCase(), color: 'red' }).expect(409);
    await api.remove(tag.id, ws.auth.guest).expect(403);
    await t.http
      .delete(`/v1/${ws.teamId}/tags/${tag.id}`)
      .set('Authorization', ws.auth.member)
      .set('If-Match', '"9"')
      .expect(412);
    await api.update(tag.id, { color: 'blue' }).expect(200);
    const events = await receiver.waitFor(2, ofTeam(ws));
    expect(events.map((e) => e.event.type)).toEqual(['tag.created', 'tag.updated']);
    expect(await stored(ws.teamId)).toHaveLength(2);
    expect(events[1].event.data.changed).toEqual(['color']);
  });
});
