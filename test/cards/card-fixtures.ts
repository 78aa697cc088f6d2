import { INestApplication } from '@nestjs/common';
import { importDocument, Workspace } from '../support/fixtures';

let next = 1000;
/** A numeric id no other fixture of this process uses. */
export const freshId = () => String(next++);

export interface CardScene {
  cardId: string;
  /** Tags usable on the card: workspace-wide ones and ones of the card's project. */
  usable: string[];
  /** A tag of another project. */
  foreign: string;
}

/** A card in project 1 (member of it: the guest), four usable tags and one of project 2. */
export async function seedCardScene(
  app: INestApplication,
  ws: Workspace,
  opts: { guestIsMember?: boolean } = {},
): Promise<CardScene> {
  const cardId = freshId();
  const usable = [freshId(), freshId(), freshId(), freshId()];
  const foreign = freshId();
  await importDocument(app, {
    projects: [{ team_id: ws.teamId, id: '2', title: 'Elsewhere' }],
    tags: [
      ...usable.map((id, n) => ({
        team_id: ws.teamId,
        id,
        project_id: n % 2 === 0 ? null : ws.projectId,
        name: `Tag ${id}`,
        color: 'red',
      })),
      { team_id: ws.teamId, id: foreign, project_id: '2', name: `Other ${foreign}`, color: 'blue' },
    ],
    cards: [
      {
        team_id: ws.teamId,
        id: cardId,
        project_id: ws.projectId,
        title: 'Fix login',
        owner_id: ws.users.owner,
        members: opts.guestIsMember === false ? [ws.users.owner] : [ws.users.owner, ws.users.guest],
        tags: [],
      },
    ],
  });
  return { cardId, usable, foreign };
}
