import { Command, InvalidArgumentError } from 'commander';
import { AppConfig } from '../../config/app-config';
import { DemoService } from '../../demo/demo.service';
import { withServices } from '../cli-session';
import { printResult, reportingFailure } from '../output';

/** `demo`: a workspace to try the API on, a token and the commands to try it with. */
export function registerDemoCommand(program: Command): void {
  program
    .command('demo')
    .description('Import (or reset) the demo workspace and print a fresh token with curl commands to try')
    .option(
      '--base-url <url>',
      'where the commands reach the service, e.g. through a mapped port or a proxy (default: http://localhost:$PORT)',
      parseBaseUrl,
    )
    .action(
      reportingFailure(async (options: { baseUrl?: string }) => {
        const { baseUrl, token, commands, sharedPageUrl } = await withServices(async (app, config) => {
          const url = options.baseUrl ?? localBaseUrl(config);
          return { baseUrl: url, ...(await app.get(DemoService).setUp(url)) };
        });
        printResult(
          [
            `Demo workspace "${token.team_id}" is ready, as new. Token for ${token.user_id} (shown only now):`,
            token.token,
            '',
            ...whereTheyGo(baseUrl, options.baseUrl === undefined),
            ...commands.flatMap(({ title, command }) => ['', `# ${title}`, command]),
            '',
            `# Then open the shared page in a browser, no token needed: ${sharedPageUrl}`,
          ].join('\n'),
        );
      }),
    );
}

/** Where the commands go and how to aim them elsewhere; the image has no curl, so with Docker they run on the host. */
function whereTheyGo(baseUrl: string, fromPort: boolean): string[] {
  const where = fromPort
    ? [
        `These call ${baseUrl}, where the service listens by its PORT setting (with docker compose:`,
        'from the host, through the published port). Behind another mapping or a proxy: demo --base-url URL.',
      ]
    : [`These call ${baseUrl}.`];
  return [...where, 'Run them in this order in a POSIX shell; running demo again resets the workspace for them.'];
}

/** Where the service started with this configuration listens, seen from this machine (as its start-up log says). */
function localBaseUrl(config: AppConfig): string {
  if (config.port === 0)
    throw new Error('PORT is 0, so the service listens on a port chosen at start: pass --base-url');
  return `http://localhost:${config.port}`;
}

/** An http(s) URL without query or fragment; a trailing slash is dropped, so paths join with one. */
function parseBaseUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InvalidArgumentError('not a URL such as http://localhost:8080');
  }
  if (!['http:', 'https:'].includes(url.protocol) || url.search || url.hash || url.username) {
    throw new InvalidArgumentError('give an http(s) URL without credentials, query or fragment');
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}
