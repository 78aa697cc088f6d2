import { Client } from 'pg';
import { useScene } from '../support/scene';
import { ACTIVITY } from '../support/citus';
import { testDatabaseUrl } from '../support/test-config';
import { waitFor } from '../support/wait-for';
import { seedFamily } from './page-fixtures';

/**
 * A title change that waits for its page's row while another writer moves the page answers with the
 * page where that writer put it: its position counted among the siblings as they are once it can write.
 */
describe('a title change that waits while its page is moved', () => {
  const s = useScene();
  /** The other writer; and a connection that watches (pg_stat_activity stays as first read within a transaction). */
  let mover: Client;
  let watcher: Client;

  beforeAll(async () => {
    [mover, watcher] = [
      new Client({ connectionString: testDatabaseUrl() }),
      new Client({ connectionString: testDatabaseUrl() }),
    ];
    await Promise.all([mover.connect(), watcher.connect()]);
  });

  afterAll(async () => {
    await Promise.all([mover.end(), watcher.end()]);
  });

  it("answers with the page's new place", async () => {
    const { children } = await seedFamily(s.t.app, s.ws, 5);
    const [first] = children;
    await mover.query('BEGIN');
    // A hand-written reorder: the first child goes last (a key after every sibling's), its row held until COMMIT.
    await mover.query(
      `UPDATE pages p
          SET sort_key = (SELECT max(q.sort_key) FROM pages q
                           WHERE q.team_id = p.team_id AND q.parent_id = p.parent_id) || 'V'
        WHERE p.team_id = $1 AND p.id = $2`,
      [s.ws.teamId, first],
    );
    const renamed = s.t.http
      .patch(`/v1/${s.ws.teamId}/pages/${first}`)
      .set('Authorization', s.ws.auth.member)
      .send({ title: 'Renamed' })
      .then((res) => res);
    const waiting = async () =>
      (
        await watcher.query(
          `SELECT count(*)::int AS n FROM ${ACTIVITY} a
            WHERE wait_event_type = 'Lock' AND query LIKE '%FOR NO KEY UPDATE OF p%'`,
        )
      ).rows[0].n;
    await waitFor('the title change to wait for the row (waiting sessions)', waiting, (n) => n > 0, { everyMs: 10 });
    await mover.query('COMMIT');

    const res = await renamed;
    expect(res.status).toBe(200);
    expect(res.body.page).toMatchObject({ title: 'Renamed', position: children.length - 1 });
    const read = await s.t.http
      .get(`/v1/${s.ws.teamId}/pages/${first}`)
      .set('Authorization', s.ws.auth.member)
      .expect(200);
    expect(read.body.page).toMatchObject({ title: 'Renamed', position: children.length - 1 });
  });
});
