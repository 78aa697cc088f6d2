import { DataSource } from 'typeorm';
import { expectError } from '../support/expect-error';
import { useScene } from '../support/scene';
import { lifecycle, pageCounts, seedHigh } from './lifecycle-fixtures';
import { treeRows } from './tree-rows';

describe('DELETE /v1/{team_id}/pages/{page_id}', () => {
  const s = useScene();
  const api = () => lifecycle(s.t.http, s.ws);
  const db = () => s.t.app.get(DataSource);
  const tree = () => treeRows(db(), s.ws.teamId);
  const exists = async (ids: string[]) =>
    (
      await db().query<Array<{ id: string }>>(
        `SELECT id::text FROM pages WHERE team_id = $1 AND id = ANY ($2::bigint[]) ORDER BY id`,
        [s.ws.teamId, ids],
      )
    ).map((row) => row.id);

  it('deletes the page and its subtree; the siblings close the gap; it is 404 afterwards', async () => {
    const [parent] = await seedHigh(s.t.app, s.ws, [{}]);
    const [a, b, c] = await seedHigh(s.t.app, s.ws, [{ parent }, { parent }, { parent }]);
    const [b1, b2] = await seedHigh(s.t.app, s.ws, [
      { parent: b, members: [{ user_id: s.ws.users.guest }], bookmarked_by: [s.ws.users.member] },
      { parent: b, watched_by: [s.ws.users.member], comments: [{ id: `c-${b}`, user_id: s.ws.users.admin }] },
    ]);
    const [b11] = await seedHigh(s.t.app, s.ws, [{ parent: b1 }]);
    const res = await api().remove(b).expect(204);
    expect(res.text).toBe('');
    expect(await exists([a, b, c, b1, b2, b11])).toEqual([a, c].sort());
    expect(await tree().children(s.ws.projectId, parent)).toEqual([a, c]);
    expect((await api().get(c).expect(200)).body.page.position).toBe(1);
    for (const id of [b, b1, b11]) expectError(await api().get(id), 'PAGE_NOT_FOUND');
    expectError(await api().remove(b), 'PAGE_NOT_FOUND');
    const leftovers = await db().query<Array<{ n: number }>>(
      `SELECT ((SELECT count(*) FROM page_members WHERE team_id = $1 AND page_id = ANY ($2::bigint[]))
             + (SELECT count(*) FROM page_bookmarks WHERE team_id = $1 AND page_id = ANY ($2::bigint[]))
             + (SELECT count(*) FROM page_watchers WHERE team_id = $1 AND page_id = ANY ($2::bigint[]))
             + (SELECT count(*) FROM page_comments WHERE team_id = $1 AND page_id = ANY ($2::bigint[])))::int AS n`,
      [s.ws.teamId, [b, b1, b2, b11]],
    );
    expect(leftovers[0].n).toBe(0);
    expect(await tree().problems()).toEqual([]);
  });

  it('takes archived descendants too: archived with it, and archived on their own from under it', async () => {
    const [top] = await seedHigh(s.t.app, s.ws, [{}]);
    const [x, y] = await seedHigh(s.t.app, s.ws, [{ parent: top }, { parent: top }]);
    const [x1] = await seedHigh(s.t.app, s.ws, [{ parent: x }]);
    const [y1] = await seedHigh(s.t.app, s.ws, [{ parent: y }]);
    await api().patch(x, { archived: true }).expect(200); // x and x1 leave the tree, remembering top
    await api().patch(y1, { archived: true }).expect(200);
    await api().patch(y, { is_public: true }).expect(200);
    await api().remove(top).expect(204);
    expect(await exists([top, x, y, x1, y1])).toEqual([]);
    expect(await tree().problems()).toEqual([]);
    const [left] = await db().query<Array<{ archives: number; aliases: number }>>(
      `SELECT (SELECT count(*) FROM page_archives WHERE team_id = $1
                  AND (page_id = ANY ($2::bigint[]) OR archive_root_id = ANY ($2::bigint[])))::int AS archives,
              (SELECT count(*) FROM public_page_aliases WHERE team_id = $1 AND page_id = ANY ($2::bigint[]))::int
                AS aliases`,
      [s.ws.teamId, [top, x, y, x1, y1]],
    );
    expect(left).toEqual({ archives: 0, aliases: 0 });
  });

  describe('the rows that hang off a page (migration 0017 checks them as their foreign keys did)', () => {
    const refused = async (sql: string, params: unknown[]) =>
      expect(db().query(sql, params)).rejects.toMatchObject({ driverError: { code: '23503' } });

    it('never name a page that does not exist, in any of the tables', async () => {
      const [page] = await seedHigh(s.t.app, s.ws, [{}]);
      const missing = String(BigInt(page) + 1_000_000n);
      const team = s.ws.teamId;
      const user = s.ws.users.member;
      await refused(`INSERT INTO page_members (team_id, page_id, user_id) VALUES ($1, $2, $3)`, [team, missing, user]);
      await refused(`INSERT INTO page_bookmarks (team_id, page_id, user_id) VALUES ($1, $2, $3)`, [
        team,
        missing,
        user,
      ]);
      await refused(`INSERT INTO page_watchers (team_id, page_id, user_id) VALUES ($1, $2, $3)`, [team, missing, user]);
      await refused(`INSERT INTO page_comments (team_id, id, page_id, user_id) VALUES ($1, 'orphan', $2, $3)`, [
        team,
        missing,
        user,
      ]);
      await refused(
        `INSERT INTO page_archives (team_id, page_id, archive_root_id, archived_by) VALUES ($1, $2, $3, $4)`,
        [team, page, missing, user],
      );
      await refused(`INSERT INTO public_page_aliases (alias_id, team_id, page_id) VALUES (gen_random_uuid(), $1, $2)`, [
        team,
        missing,
      ]);
      await db().query(`INSERT INTO page_watchers (team_id, page_id, user_id) VALUES ($1, $2, $3)`, [team, page, user]);
      await refused(`UPDATE page_watchers SET page_id = $2 WHERE team_id = $1 AND page_id = $3`, [team, missing, page]);
      await refused(`UPDATE pages SET id = $2 WHERE team_id = $1 AND id = $3`, [team, missing, page]);
    });
  });

  it('deletes an archived page (and the pages archived with it)', async () => {
    const [top] = await seedHigh(s.t.app, s.ws, [{}]);
    const [kid] = await seedHigh(s.t.app, s.ws, [{ parent: top }]);
    await api().patch(top, { archived: true }).expect(200);
    await api().remove(top).expect(204);
    expect(await exists([top, kid])).toEqual([]);
  });

  it('ids of deleted pages are never handed out again', async () => {
    const made = (await api().create({ project_id: s.ws.projectId }).expect(201)).body.page.id;
    await api().remove(made).expect(204);
    const next = (await api().create({ project_id: s.ws.projectId }).expect(201)).body.page.id;
    expect(BigInt(next)).toBeGreaterThan(BigInt(made));
    // An imported page above every id handed out, deleted: its id is retired too.
    const [high] = await seedHigh(s.t.app, s.ws, [{ id: String(BigInt(next) + 1_000_000n) }]);
    await api().remove(high).expect(204);
    const after = (await api().create({ project_id: s.ws.projectId }).expect(201)).body.page.id;
    expect(BigInt(after)).toBeGreaterThan(BigInt(high));
  });

  describe('refusals change nothing', () => {
    const refuses = async (res: Promise<import('supertest').Response>, code: Parameters<typeof expectError>[1]) => {
      const before = await pageCounts(s.t.app, s.ws);
      expectError(await res, code);
      expect(await pageCounts(s.t.app, s.ws)).toEqual(before);
    };

    it('401, 403 (guest, even listed; viewer; another workspace), 404, 400 for a bad id', async () => {
      const [page] = await seedHigh(s.t.app, s.ws, [{ members: [{ user_id: s.ws.users.guest }] }]);
      await refuses(s.t.http.delete(`/v1/${s.ws.teamId}/pages/${page}`), 'UNAUTHENTICATED');
      await refuses(api().remove(page, s.ws.auth.guest), 'ACCESS_DENIED');
      await refuses(api().remove(page, s.ws.auth.viewer), 'ACCESS_DENIED');
      await refuses(
        s.t.http.delete(`/v1/${s.ws.teamId}/pages/${page}`).set('Authorization', s.other.auth.owner),
        'ACCESS_DENIED',
      );
      await refuses(api().remove('123456789012'), 'PAGE_NOT_FOUND');
      await refuses(api().remove('9999999999999999999'), 'PAGE_NOT_FOUND');
      await refuses(api().remove('abc'), 'INVALID_PATH_PARAMETER');
    });

    it('If-Match: a stale ETag is 412 and deletes nothing; the current one deletes', async () => {
      const [page] = await seedHigh(s.t.app, s.ws, [{}]);
      const etag = (await api().get(page).expect(200)).headers.etag;
      await api().patch(page, { title: 'Changed' }).expect(200);
      await refuses(api().remove(page).set('If-Match', etag), 'PRECONDITION_FAILED');
      const current = (await api().get(page).expect(200)).headers.etag;
      await api().remove(page).set('If-Match', current).expect(204);
    });
  });

  it('Idempotency-Key: the repeat gets the kept 204; without it, 404', async () => {
    const [page] = await seedHigh(s.t.app, s.ws, [{}]);
    const key = `delete-${page}`;
    await api().remove(page).set('Idempotency-Key', key).expect(204);
    const again = await api().remove(page).set('Idempotency-Key', key).expect(204);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expectError(await api().remove(page), 'PAGE_NOT_FOUND');
  });
});
