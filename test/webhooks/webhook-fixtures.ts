import { Workspace } from '../support/fixtures';
import { createTestApp, TestApp } from '../support/test-app';
import type { AttemptRow } from '../../src/webhooks/webhook-queries';
import { waitFor } from '../support/wait-for';
import { Received, Receiver, WEBHOOK_TEST_ENV } from './receiver';

/** A test app delivering as every webhook spec does, and a receiver on loopback; closed by stopAppAndReceiver. */
export async function startAppAndReceiver(): Promise<{ t: TestApp; receiver: Receiver }> {
  return { t: await createTestApp(WEBHOOK_TEST_ENV), receiver: await Receiver.start() };
}

export async function stopAppAndReceiver(t: TestApp, receiver: Receiver): Promise<void> {
  await t.close();
  await receiver.close();
}

/** Subscribes `url` to `events` of the workspace, as its owner: the webhook as created, its secret included. */
export async function subscribe(
  t: TestApp,
  ws: Workspace,
  url: string,
  events: readonly string[] = ['*'],
): Promise<{ id: string; secret: string }> {
  const res = await t.http.post(`/v1/${ws.teamId}/webhooks`).set('Authorization', ws.auth.owner).send({ url, events });
  expect(res.status).toBe(201);
  return res.body.webhook as { id: string; secret: string };
}

/** Whether an event is of the workspace. */
export const ofTeam = (ws: Workspace) => (e: Received['event']) => e.data.team_id === ws.teamId;

/** A webhook's deliveries log, as its owner reads it (newest attempt first). */
export async function deliveryLog(t: TestApp, ws: Workspace, webhookId: string): Promise<AttemptRow[]> {
  const res = await t.http.get(`/v1/${ws.teamId}/webhooks/${webhookId}/deliveries`).set('Authorization', ws.auth.owner);
  expect(res.status).toBe(200);
  return res.body.deliveries as AttemptRow[];
}

/** The log once it holds `count` attempts: a receiver sees a request before the worker records its outcome. */
export function recordedLog(t: TestApp, ws: Workspace, webhookId: string, count: number): Promise<AttemptRow[]> {
  return waitFor(
    `${count} attempts in the deliveries log of webhook ${webhookId}`,
    () => deliveryLog(t, ws, webhookId),
    (log) => log.length >= count,
  );
}
