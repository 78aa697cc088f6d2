import fc from 'fast-check';
import { DataSource } from 'typeorm';
import { useScene } from '../support/scene';
import { seedFamily } from './page-fixtures';
import { blockProblems } from './sibling-block-problems';

describe('page_sibling_blocks (migration 0006) count the active siblings of every place', () => {
  const s = useScene();
  const db = () => s.t.app.get(DataSource);

  it('stay exact whatever statements change pages: bulk moves, archives, project moves, inserts, deletes', async () => {
    // In the other workspace: the keys written here are not fractional-indexing keys, which the import refuses.
    const ws = s.other;
    const { root: big } = await seedFamily(s.t.app, ws, 450);
    const { root: small } = await seedFamily(s.t.app, ws, 40);
    expect(await blockProblems(db(), ws.teamId)).toEqual([]);
    const team = ws.teamId;
    let serial = 0;
    /**
     * A key unique in any place, landing among the others at `prefix` (so in the first, a middle or the
     * last block).
     */
    const key = (prefix: string) => `'${prefix}' || '${++serial}-' || id`;
    const statement = fc.record({
      // Which pages: those whose id is `rest` modulo `modulus` (1 of 2 to 1 of 40), of the workspace's pages.
      modulus: fc.integer({ min: 2, max: 40 }),
      rest: fc.nat({ max: 39 }),
      prefix: fc.constantFrom('a', 'a0', 'a0V', 'Zz', 'zz', 'b'),
      kind: fc.constantFrom(
        'to big',
        'to small',
        'to root',
        'rekey',
        'archive',
        'other project',
        'back to project 1',
        'insert',
        'delete leaves',
        'delete subtrees',
      ),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(statement, { minLength: 5, maxLength: 12 }), async (statements) => {
        for (const { modulus, rest, prefix, kind } of statements) {
          const chosen = `team_id = '${team}' AND id % ${modulus} = ${rest % modulus} AND id NOT IN (${big}, ${small})`;
          const sql: Record<typeof kind, string> = {
            'to big': `UPDATE pages SET parent_id = ${big}, project_id = '${ws.projectId}', sort_key = ${key(prefix)}
                        WHERE ${chosen}
                          AND NOT EXISTS (SELECT 1 FROM pages c
                                           WHERE c.team_id = pages.team_id AND c.parent_id = pages.id)`,
            'to small': `UPDATE pages
                            SET parent_id = ${small}, project_id = '${ws.projectId}', sort_key = ${key(prefix)}
                          WHERE ${chosen}
                            AND NOT EXISTS (SELECT 1 FROM pages c
                                             WHERE c.team_id = pages.team_id AND c.parent_id = pages.id)`,
            'to root': `UPDATE pages SET parent_id = NULL, sort_key = ${key(prefix)} WHERE ${chosen}`,
            rekey: `UPDATE pages SET sort_key = ${key(prefix)} WHERE ${chosen} AND sort_key IS NOT NULL`,
            archive: `UPDATE pages SET sort_key = NULL WHERE ${chosen}`,
            'other project': `UPDATE pages SET project_id = '2' WHERE ${chosen}`,
            'back to project 1': `UPDATE pages SET project_id = '${ws.projectId}' WHERE ${chosen}`,
            insert: `INSERT INTO pages (team_id, id, project_id, parent_id, sort_key, owner_id, created_by, updated_by)
                     SELECT '${team}', 900000 + ${++serial} * 1000 + n, '${ws.projectId}', ${big},
                            '${prefix}' || '${serial}-' || n,
                            '${ws.users.owner}', '{}', '{}'
                       FROM generate_series(1, ${modulus * 3}) AS n`,
            'delete leaves': `DELETE FROM pages
                               WHERE ${chosen}
                                 AND NOT EXISTS (SELECT 1 FROM pages c
                                                  WHERE c.team_id = pages.team_id AND c.parent_id = pages.id)`,
            // Whole subtrees in one statement: the places under them go with them (migration 0017).
            'delete subtrees': `WITH RECURSIVE doomed AS (
                                  SELECT id FROM pages WHERE ${chosen} AND id % 3 = 0
                                  UNION
                                  SELECT c.id FROM pages c JOIN doomed d
                                      ON c.team_id = '${team}' AND c.parent_id = d.id)
                                DELETE FROM pages WHERE team_id = '${team}' AND id IN (SELECT id FROM doomed)`,
          };
          await db().query(sql[kind]);
          expect({ after: kind, problems: await blockProblems(db(), team) }).toEqual({ after: kind, problems: [] });
        }
      }),
      { numRuns: 8 },
    );
  }, 120_000);

  it('give every position through the API as the sibling order has it, while blocks split and merge', async () => {
    const { root } = await seedFamily(s.t.app, s.ws, 420);
    const { root: other } = await seedFamily(s.t.app, s.ws, 3);
    const patch = (id: string, body: object) =>
      s.t.http.patch(`/v1/${s.ws.teamId}/pages/${id}`).set('Authorization', s.ws.auth.member).send(body).expect(200);
    const order = async (parent: string): Promise<string[]> =>
      (
        await db().query(
          `SELECT id::text FROM pages WHERE team_id = $1 AND parent_id = $2 AND sort_key IS NOT NULL ORDER BY sort_key`,
          [s.ws.teamId, parent],
        )
      ).map((row: { id: string }) => row.id);
    let random = 7;
    const next = (n: number) => (random = (random * 1103515245 + 12345) % 2 ** 31) % n;
    // Pages from anywhere go to the front (the first block grows and splits) or out to another parent and
    // back (blocks shrink and merge), with reorders to random places in between.
    for (let step = 0; step < 240; step++) {
      const siblings = await order(root);
      const page = siblings[next(siblings.length)];
      const move = step % 4;
      if (move === 0 || move === 1) {
        const wanted = move === 0 ? 0 : next(siblings.length + 5);
        const res = await patch(page, { position: wanted });
        const expected = Math.min(wanted, siblings.length - 1);
        expect(res.body.page.position).toBe(expected);
        expect((await order(root)).indexOf(page)).toBe(expected);
      } else if (move === 2) {
        await patch(page, { parent_page_id: other });
      } else {
        const away = await order(other);
        const back = away[next(away.length)];
        const wanted = next(siblings.length + 1);
        expect((await patch(back, { parent_page_id: root, position: wanted })).body.page.position).toBe(
          Math.min(wanted, siblings.length),
        );
      }
    }
    const final = await order(root);
    for (const index of [0, 1, 83, 84, 99, 100, 101, 250, final.length - 1]) {
      const res = await s.t.http
        .get(`/v1/${s.ws.teamId}/pages/${final[index]}`)
        .set('Authorization', s.ws.auth.member)
        .expect(200);
      expect(res.body.page.position).toBe(index);
    }
    expect(await blockProblems(db(), s.ws.teamId)).toEqual([]);
    const [{ blocks }] = await db().query(
      `SELECT count(*)::int AS blocks FROM page_sibling_blocks WHERE team_id = $1 AND parent_key = $2`,
      [s.ws.teamId, root],
    );
    expect(blocks).toBeGreaterThan(1);
  }, 120_000);
});
