import { Command } from 'commander';
import { DemoService } from '../../demo/demo.service';
import { withServices } from '../cli-session';
import { printResult, reportingFailure } from '../output';

/** `demo`: a workspace to try the API on, a token and the commands to try it with. */
export function registerDemoCommand(program: Command): void {
  program
    .command('demo')
    .description('Import (or reset) the demo workspace and print a fresh token with curl commands to try')
    .action(
      reportingFailure(async () => {
        const { token, commands } = await withServices((app, config) =>
          app.get(DemoService).setUp(`http://localhost:${config.port}`),
        );
        printResult(
          [
            `Demo workspace "${token.team_id}" is ready. Token for ${token.user_id} (shown only now):`,
            token.token,
            '',
            'With the server running (npm start), update the demo note template, then read it back:',
            ...commands,
          ].join('\n'),
        );
      }),
    );
}
