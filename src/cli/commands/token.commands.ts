import { Command } from 'commander';
import ms from 'ms';
import { DataSource } from 'typeorm';
import { TokensService } from '../../auth/tokens.service';
import { withServices } from '../cli-session';
import { printResult, reportingFailure } from '../output';
import { named } from '../../database/named-parameters';

interface CreateOptions {
  team: string;
  user: string;
  expiresIn?: string;
  name?: string;
}

/** `token create` and `token revoke`. */
export function registerTokenCommands(program: Command): void {
  const token = program.command('token').description('Issue and revoke bearer tokens');

  token
    .command('create')
    .description('Issue a token to a member of a workspace; prints it once, with its id')
    .requiredOption('--team <team_id>', 'the workspace the token works in')
    .requiredOption('--user <user_id>', 'the member it acts for')
    .option('--expires-in <duration>', 'lifetime such as 30d, 12h or 90m (default: does not expire)')
    .option('--name <name>', 'a label for the token')
    .action(
      reportingFailure(async (options: CreateOptions) => {
        const expiresAt = options.expiresIn === undefined ? null : new Date(Date.now() + lifetime(options.expiresIn));
        const issued = await withServices(async (app) => {
          await requireMember(app.get(DataSource), options.team, options.user);
          return app
            .get(TokensService)
            .create({ teamId: options.team, userId: options.user, name: options.name, expiresAt });
        });
        printResult(issued);
      }),
    );

  token
    .command('revoke')
    .description('Revoke a token by id')
    .argument('<id>', 'the token id')
    .option('--team <team_id>', 'the workspace, when the id is used in several')
    .action(
      reportingFailure(async (id: string, { team }: { team?: string }) => {
        const found = await withServices((app) => app.get(TokensService).revoke(id, team));
        const where = team ? ` in workspace ${team}` : '';
        if (found === 0) throw new Error(`No token has id ${id}${where}`);
        if (found > 1) throw new Error(`Token id ${id} exists in ${found} workspaces; say which with --team`);
        printResult({ id, revoked: true });
      }),
    );
}

function lifetime(text: string): number {
  const millis = ms(text as ms.StringValue) as number | undefined;
  if (millis === undefined || !Number.isFinite(millis) || millis <= 0) {
    throw new Error(`--expires-in "${text}" is not a positive duration such as 30d, 12h or 90m`);
  }
  return millis;
}

async function requireMember(db: DataSource, teamId: string, userId: string): Promise<void> {
  const rows = await db.query<unknown[]>(
    ...named(`SELECT 1 FROM members WHERE team_id = :teamId AND user_id = :userId`, { teamId, userId }),
  );
  if (rows.length === 0) throw new Error(`User ${userId} is not a member of workspace ${teamId}`);
}
