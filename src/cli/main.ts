#!/usr/bin/env node
import 'reflect-metadata';
import { Command } from 'commander';
import { registerDataCommands } from './commands/data.commands';
import { registerDemoCommand } from './commands/demo.command';
import { registerMigrationCommands } from './commands/migration.commands';
import { registerTokenCommands } from './commands/token.commands';
import { registerWebhookCommands } from './commands/webhook.commands';

/**
 * `npm run cli -- <command>` or `npx wca <command>`: data in and out of the server's database. Results on
 * stdout, everything else on stderr.
 */
const program = new Command('wca').description(
  'Workspace Content API: import, export, tokens, webhooks, demo data and migrations, on the database the server uses',
);

// A reader that stops early (`| head`) is not a failure.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
});

registerDataCommands(program);
registerTokenCommands(program);
registerWebhookCommands(program);
registerDemoCommand(program);
registerMigrationCommands(program);

void program.parseAsync(process.argv);
