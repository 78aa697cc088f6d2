import { Injectable } from '@nestjs/common';
import { IssuedToken, TokensService } from '../auth/tokens.service';
import { ImportService } from '../import/import.service';
import { DEMO_OWNER_ID, DEMO_TEAM_ID, DEMO_TEMPLATE_ID, DEMO_WORKSPACE } from './demo-workspace';

export interface DemoSetup {
  token: IssuedToken;
  /** Ready to paste: update the demo note template, then read it back. */
  commands: string[];
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
    const url = `${baseUrl}/v1/${DEMO_TEAM_ID}/notes/templates/${DEMO_TEMPLATE_ID}`;
    const auth = `-H "Authorization: Bearer ${token.token}"`;
    return {
      token,
      commands: [
        `curl -s -X PATCH ${url} ${auth} -H "Content-Type: application/json" -d '{"title":"Daily standup (edited)"}'`,
        `curl -s ${url} ${auth}`,
      ],
    };
  }
}
