import { Command } from 'commander';
import { DataSource } from 'typeorm';
import { isNumericId } from '../../common/numeric-id';
import { LIST_ATTEMPTS, LIST_WEBHOOKS } from '../../webhooks/webhook-queries';
import { withDataSource } from '../cli-session';
import { printResult, reportingFailure } from '../output';
import { named } from '../../database/named-parameters';

/** How many attempts `webhook deliveries` prints, newest first. */
const ATTEMPTS_PRINTED = 1000;

/** `webhook list` and `webhook deliveries`: what operators look at when a receiver says it missed events. */
export function registerWebhookCommands(program: Command): void {
  const webhook = program.command('webhook').description('Inspect webhooks and their deliveries');

  webhook
    .command('list')
    .description("Print a workspace's webhooks (never their secrets)")
    .requiredOption('--team <team_id>', 'the workspace')
    .action(
      reportingFailure(async ({ team }: { team: string }) => {
        const webhooks = await withDataSource((db) =>
          db.query<unknown[]>(LIST_WEBHOOKS.text, LIST_WEBHOOKS.values({ teamId: team })),
        );
        printResult({ webhooks });
      }),
    );

  webhook
    .command('deliveries')
    .description("Print a webhook's delivery attempts, newest first, with what is still pending")
    .argument('<id>', 'the webhook id')
    .action(
      reportingFailure(async (id: string) => {
        if (!isNumericId(id)) throw new Error(`Webhook id ${String(id)} is not a numerical string`);
        printResult(await withDataSource((db) => deliveries(db, id)));
      }),
    );
}

async function deliveries(db: DataSource, id: string): Promise<object> {
  const [found] = await db.query<Array<{ team_id: string; pending: number }>>(
    ...named(
      `SELECT w.team_id,
              (SELECT count(*)::int FROM webhook_deliveries d
                WHERE d.team_id = w.team_id AND d.webhook_id = w.id AND d.state = 'pending') AS pending
         FROM webhooks w WHERE w.id = :webhookId`,
      { webhookId: id },
    ),
  );
  if (!found) throw new Error(`No webhook has id ${id}`);
  const key = { teamId: found.team_id, webhookId: id, limit: ATTEMPTS_PRINTED };
  const attempts = await db.query<unknown[]>(LIST_ATTEMPTS.text, LIST_ATTEMPTS.values(key));
  return { webhook_id: id, team_id: found.team_id, pending: found.pending, deliveries: attempts };
}
