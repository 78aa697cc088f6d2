import { DataSource } from 'typeorm';
import { freshId } from '../cards/card-fixtures';
import { importDocument } from '../support/fixtures';
import { useScene } from '../support/scene';
import { tagClient } from './tag-fixtures';

/** A small deterministic generator, so that a failing interleaving of requests can be sent again. */
function random(seed: number) {
  return (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
}

describe('Tags under concurrent attaches, removals and deletions', () => {
  const s = useScene();
  const api = () => tagClient(s.t, s.ws);
  const rows = (sql: string) => s.t.app.get(DataSource).query<Array<Record<string, string>>>(sql, [s.ws.teamId]);

  async function seed(cards: number, tags: number) {
    const cardIds = Array.from({ length: cards }, () => freshId());
    const tagIds = Array.from({ length: tags }, () => freshId());
    await importDocument(s.t.app, {
      tags: tagIds.map((id) => ({ team_id: s.ws.teamId, id, project_id: null, name: `Race ${id}` })),
      cards: cardIds.map((id) => ({
        team_id: s.ws.teamId,
        id,
        project_id: s.ws.projectId,
        title: 'Raced',
        owner_id: s.ws.users.owner,
        members: [s.ws.users.owner],
        tags: [],
      })),
    });
    return { cardIds, tagIds };
  }

  /** Every card's tags and every tag's total_cards, as the API shows them, agree with the rows. */
  async function expectConsistent(cardIds: string[]) {
    const links = await rows(
      `SELECT card_id::text, tag_id::text FROM card_tags WHERE team_id = $1 ORDER BY attached_seq`,
    );
    for (const cardId of cardIds) {
      const card = await api().card(cardId);
      expect(card.tags.map((t) => t.id)).toEqual(links.filter((l) => l.card_id === cardId).map((l) => l.tag_id));
    }
    const { body } = await api().list({ all: 'true', limit: '500' }).expect(200);
    for (const tag of body.tags as Array<{ id: string; total_cards: number }>)
      expect(tag.total_cards).toBe(links.filter((l) => l.tag_id === tag.id).length);
    const dangling = await rows(
      `SELECT n.tag_id FROM card_tags n LEFT JOIN tags t ON t.team_id = n.team_id AND t.id = n.tag_id
        WHERE n.team_id = $1 AND t.id IS NULL`,
    );
    expect(dangling).toEqual([]);
  }

  it('20 clients attaching, removing and deleting the same tags on the same cards: no 500, exact counts', async () => {
    const { cardIds, tagIds } = await seed(4, 8);
    const clients = Array.from({ length: 20 }, async (_, client) => {
      const pick = random(client + 1);
      const statuses: string[] = [];
      for (let step = 0; step < 12; step++) {
        const card = cardIds[pick(cardIds.length)];
        const tag = tagIds[pick(tagIds.length)];
        const op = pick(10);
        if (op < 5) {
          const res = await api().attach(card, [tag, tagIds[pick(tagIds.length)]]);
          statuses.push(`attach ${res.status}`);
        } else if (op < 9) {
          statuses.push(`untag ${(await api().untag(card, tag)).status}`);
        } else {
          statuses.push(`delete ${(await api().remove(tag)).status}`);
        }
      }
      return statuses;
    });
    const statuses = (await Promise.all(clients)).flat();
    const allowed = new Set(['attach 204', 'attach 404', 'untag 204', 'untag 404', 'delete 204', 'delete 404']);
    expect(statuses.filter((status) => !allowed.has(status))).toEqual([]);
    await expectConsistent(cardIds);
  });

  it('a tag deleted while 20 clients attach it never leaves a card pointing at it', async () => {
    for (let round = 0; round < 3; round++) {
      const { cardIds, tagIds } = await seed(10, 2);
      const [doomed, kept] = tagIds;
      await api().attach(cardIds[0], [doomed]).expect(204);
      const attaches = Array.from({ length: 20 }, (_, n) => api().attach(cardIds[n % 10], [kept, doomed]));
      const deletion = api().remove(doomed);
      const answers = await Promise.all([...attaches, deletion]);
      expect((await deletion).status).toBe(204);
      for (const res of answers.slice(0, 20)) expect([204, 404]).toContain(res.status);
      const left = await rows(`SELECT card_id FROM card_tags WHERE team_id = $1 AND tag_id = ${doomed}`);
      expect(left).toEqual([]);
      await expectConsistent(cardIds);
    }
  });

  it('two deletions of tags on the same cards, with attaches of both, at once: no 500, no deadlock', async () => {
    const { cardIds, tagIds } = await seed(30, 4);
    await Promise.all(cardIds.map((card) => api().attach(card, tagIds.slice(0, 2)).expect(204)));
    const answers = await Promise.all([
      api().remove(tagIds[0]),
      api().remove(tagIds[1]),
      ...cardIds.map((card, n) => api().attach(card, [tagIds[2 + (n % 2)], tagIds[n % 2]])),
      ...cardIds.map((card) => api().untag(card, tagIds[1])),
    ]);
    expect(answers.slice(0, 2).map((r) => r.status)).toEqual([204, 204]);
    for (const res of answers.slice(2)) expect([204, 404]).toContain(res.status);
    await expectConsistent(cardIds);
  });
});
