import { seedPages } from '../pages/page-fixtures';
import { seedWorkspace, Workspace } from '../support/fixtures';
import { TestApp } from '../support/test-app';
import { Receiver } from '../webhooks/receiver';
import { ofTeam, recordedLog, startAppAndReceiver, stopAppAndReceiver, subscribe } from '../webhooks/webhook-fixtures';
import { runCli } from './run-cli';

describe('CLI: webhook list and webhook deliveries (e2e)', () => {
  let t: TestApp;
  let receiver: Receiver;

  beforeAll(async () => ({ t, receiver } = await startAppAndReceiver()));
  afterAll(() => stopAppAndReceiver(t, receiver));

  const route = async (ws: Workspace, path: string) =>
    (await t.http.get(`/v1/${ws.teamId}/webhooks${path}`).set('Authorization', ws.auth.owner).expect(200)).body;

  it('webhook list prints what GET /webhooks shows, never a secret', async () => {
    const ws = await seedWorkspace(t.app);
    const hooks = [await subscribe(t, ws, receiver.url), await subscribe(t, ws, receiver.url, ['page.updated'])];
    const listed = await runCli(['webhook', 'list', '--team', ws.teamId]);
    expect(listed).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(listed.stdout)).toEqual(await route(ws, ''));
    for (const { secret } of hooks) expect(listed.stdout).not.toContain(secret.slice('whsec_'.length));
  });

  it('webhook deliveries prints the attempts the deliveries route shows, and what is pending', async () => {
    const ws = await seedWorkspace(t.app);
    const hook = await subscribe(t, ws, receiver.url);
    const [page] = await seedPages(t.app, ws, [{}]);
    receiver.answer = (request, count) => (ofTeam(ws)(request.event) && count === 0 ? 503 : 200);
    try {
      await t.http.patch(`/v1/${ws.teamId}/pages/${page}`).set('Authorization', ws.auth.owner).send({ title: 'Seen' });
      await receiver.waitFor(2, ofTeam(ws));
      const deliveries = await recordedLog(t, ws, hook.id, 2);
      expect(deliveries.map((a) => a.status)).toEqual([200, 503]);

      const printed = await runCli(['webhook', 'deliveries', hook.id]);
      expect(printed).toMatchObject({ code: 0, stderr: '' });
      expect(JSON.parse(printed.stdout)).toEqual({
        webhook_id: hook.id,
        team_id: ws.teamId,
        pending: 0,
        deliveries,
      });
    } finally {
      receiver.answer = () => 200;
    }
  });

  it.each([
    ['a webhook that does not exist', '999999999999', /^error: No webhook has id 999999999999\n$/],
    ['an id that is not a number', 'abc', /^error: Webhook id abc is not a numerical string\n$/],
  ])('webhook deliveries of %s: exit code 1 and one line on stderr', async (_, id, message) => {
    const failed = await runCli(['webhook', 'deliveries', id]);
    expect(failed).toMatchObject({ code: 1, stdout: '' });
    expect(failed.stderr).toMatch(message);
  });
});
