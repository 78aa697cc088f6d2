import { DataSource } from 'typeorm';
import { seedWorkspace } from '../support/fixtures';
import type { TestApp } from '../support/test-app';
import { Receiver, verify } from '../webhooks/receiver';
import { ofTeam, startAppAndReceiver, stopAppAndReceiver, subscribe } from '../webhooks/webhook-fixtures';

describe('note_template.created and note_template.deleted (e2e, a real receiver on loopback)', () => {
  let t: TestApp;
  let receiver: Receiver;

  beforeAll(async () => ({ t, receiver } = await startAppAndReceiver()));
  afterAll(() => stopAppAndReceiver(t, receiver));

  it('a create, then a delete, are announced in order, verified with standardwebhooks', async () => {
    const ws = await seedWorkspace(t.app);
    const { secret } = await subscribe(t, ws, receiver.url);
    const base = `/v1/${ws.teamId}/notes/templates`;
    const created = await t.http
      .post(base)
      .set('Authorization', ws.auth.agent)
      .send({ title: 'Retro', sections: [{ title: 'Wins' }] })
      .expect(201);
    const template = created.body.note_template;
    await t.http.delete(`${base}/${template.id}`).set('Authorization', ws.auth.agent).expect(204);

    const deliveries = await receiver.waitFor(2, ofTeam(ws));
    for (const delivery of deliveries) expect(verify(secret, delivery)).toEqual(delivery.event);
    const [first, second] = deliveries.map((d) => d.event);
    const { is_favourited: _perCaller, ...shown } = template;
    expect(first).toMatchObject({
      type: 'note_template.created',
      data: { team_id: ws.teamId, actor: template.user, note_template: shown },
    });
    expect(second).toMatchObject({
      type: 'note_template.deleted',
      data: { team_id: ws.teamId, actor: template.user, note_template_id: template.id },
    });
  });

  it('announces nothing for a refused delete', async () => {
    const ws = await seedWorkspace(t.app);
    await subscribe(t, ws, receiver.url);
    const base = `/v1/${ws.teamId}/notes/templates`;
    const { id } = (await t.http.post(base).set('Authorization', ws.auth.admin).send({ title: 'Mine' }).expect(201))
      .body.note_template;
    await t.http.delete(`${base}/${id}`).set('Authorization', ws.auth.member).expect(403);
    const stored = await t.app
      .get(DataSource)
      .query<Array<{ type: string }>>(`SELECT type FROM webhook_events WHERE team_id = $1 ORDER BY id`, [ws.teamId]);
    expect(stored.map((event) => event.type)).toEqual(['note_template.created']);
  });
});
