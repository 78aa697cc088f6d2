import { INestApplication } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { importDocument, Workspace } from '../support/fixtures';

export interface TemplateSeed {
  owner_id?: string | null;
  title?: string;
  context?: string;
  sections?: Array<{ title: string; description: string }>;
  ai_actions?: boolean;
  is_shared?: boolean;
  favourited_by?: string[];
  icon?: object;
}

/** A fresh template with a unique id in the workspace; owned by the member unless said otherwise. */
export async function seedTemplate(app: INestApplication, ws: Workspace, seed: TemplateSeed = {}): Promise<string> {
  const id = `tpl-${randomBytes(5).toString('hex')}`;
  await importDocument(app, {
    note_templates: [
      {
        team_id: ws.teamId,
        id,
        owner_id: ws.users.member,
        title: 'Standup',
        context: 'Summarise the standup',
        sections: [{ title: 'Yesterday', description: 'What got done' }],
        ai_actions: false,
        is_shared: false,
        ...seed,
      },
    ],
  });
  return id;
}
