import { Injectable } from '@nestjs/common';
import { IssuedToken, TokensService } from '../auth/tokens.service';
import { ImportService } from '../import/import.service';
import { curlCommand } from './curl-command';
import { demoSteps } from './demo-requests';
import { DEMO_OWNER_ID, DEMO_SHARED_ALIAS, DEMO_TEAM_ID, DEMO_WORKSPACE } from './demo-workspace';

export interface DemoCommand {
  title: string;
  /** A complete curl command line, token included, ready to paste into a POSIX shell. */
  command: string;
}

export interface DemoSetup {
  token: IssuedToken;
  /** Every operation once, to run in this order. */
  commands: DemoCommand[];
  /** Where this service serves the page the commands share, to open in a browser. */
  sharedPageUrl: string;
}

@Injectable()
export class DemoService {
  constructor(
    private readonly importer: ImportService,
    private readonly tokens: TokensService,
  ) {}

  /** (Re)creates the demo workspace and issues a fresh token for its owner; `baseUrl` is where the API listens. */
  async setUp(baseUrl: string): Promise<DemoSetup> {
    await this.importer.importDocument(DEMO_WORKSPACE);
    const token = await this.tokens.create({ teamId: DEMO_TEAM_ID, userId: DEMO_OWNER_ID, name: 'demo' });
    // The token's random id names this run's new tag: unique, and no other state to keep.
    const commands = demoSteps(token.id.slice('tok_'.length, 'tok_'.length + 8)).map(({ title, request }) => ({
      title,
      command: curlCommand(baseUrl, token.token, request),
    }));
    return { token, commands, sharedPageUrl: `${baseUrl}/p/${DEMO_SHARED_ALIAS}` };
  }
}
