/**
 * Deleting a tag that is on 10,000 cards: one transaction takes it off every card (each card's version
 * moves) and deletes it. Target: under 200 ms at concurrency 1, and writes to other tags do not wait
 * for it.
 *
 *   npm run bench:tag-delete [-- --n 5 --cards 10000 --side 4]
 *
 * Seeds one workspace with `cards` cards, n + 1 tags on every one of them (the doomed tags; the first
 * is a warm-up) and, on 200 other cards, other tags. Then, in turns:
 *   app      DELETE /v1/{team}/tags/{id} over real HTTP, while `side` clients each attach and remove
 *            other tags on the other cards in a loop (their latencies while deletes run, against the
 *            same loop alone before)
 *   floor    the least the deletion needs, with pg alone: BEGIN, DELETE the tag's card_tags rows
 *            RETURNING the cards, UPDATE those cards' version, DELETE the tag, COMMIT
 * Writes bench/results/tag-delete.json. Numbers from a shared machine are indicative.
 */
import { randomBytes } from 'node:crypto';
import { Pool } from 'pg';
import { startBenchApp } from './support/bench-app';
import { send } from './support/http';
import { summarize, timed } from './support/latency';
import { environment, latencyTable, parseArgs, postgresVersion, writeResult } from './support/report';

const SIDE_CARDS = 200;
const SIDE_TAGS = 20;

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2), { n: 5, cards: 10_000, side: 4 });
  const bench = await startBenchApp();
  const floor = new Pool({ connectionString: bench.database.url, max: 2 });
  try {
    const teamId = `bench${Date.now().toString(36)}${randomBytes(4).toString('hex')}`;
    const userId = `${teamId}-member`;
    const secret = `bench-${randomBytes(16).toString('hex')}`;
    const auth = `Bearer ${secret}`;
    // Doomed tags 1..3(n+1): the app's alone, the app's with side writes, the floor's, in turns; side tags after.
    const doomed = Array.from({ length: 3 * (options.n + 1) }, (_, i) => String(i + 1));
    const side = Array.from({ length: SIDE_TAGS }, (_, i) => String(doomed.length + i + 1));
    const cardIds = Array.from({ length: options.cards }, (_, i) => String(i + 1));
    const sideCards = Array.from({ length: SIDE_CARDS }, (_, i) => String(options.cards + i + 1));
    await bench.importDocument({
      workspaces: [{ id: teamId, name: 'Tag delete benchmark' }],
      users: [{ id: userId, name: 'Bench member', email: `member@${teamId}.example.com` }],
      members: [{ team_id: teamId, user_id: userId, role: 'member' }],
      tokens: [
        { id: 'bench', team_id: teamId, user_id: userId, token: secret, expires_at: null, actor: { type: 'user' } },
      ],
      projects: [{ team_id: teamId, id: '1', title: 'Bench project' }],
      tags: [...doomed, ...side].map((id) => ({
        team_id: teamId,
        id,
        project_id: null,
        name: `Tag ${id}`,
        color: 'red',
      })),
    });
    for (let first = 0; first < cardIds.length; first += 2_500)
      await bench.importDocument({
        cards: cardIds.slice(first, first + 2_500).map((id) => ({
          team_id: teamId,
          id,
          project_id: '1',
          title: `Card ${id}`,
          owner_id: userId,
          members: [userId],
          tags: doomed,
        })),
      });
    await bench.importDocument({
      cards: sideCards.map((id) => ({
        team_id: teamId,
        id,
        project_id: '1',
        title: `Side ${id}`,
        owner_id: userId,
        members: [userId],
        tags: [],
      })),
    });
    await bench.db.query('VACUUM (ANALYZE) tags, cards, card_members, card_tags');

    const url = (path: string) => `${bench.baseUrl}/v1/${teamId}${path}`;
    const appDelete = (tag: string) => send(url(`/tags/${tag}`), { method: 'DELETE', auth, expect: 204 });
    const floorDelete = async (tag: string) => {
      const client = await floor.connect();
      try {
        await client.query('BEGIN');
        const { rows } = await client.query<{ card_id: string }>(
          'DELETE FROM card_tags WHERE team_id = $1 AND tag_id = $2 RETURNING card_id',
          [teamId, tag],
        );
        await client.query('UPDATE cards SET version = version + 1 WHERE team_id = $1 AND id = ANY($2::bigint[])', [
          teamId,
          rows.map((r) => r.card_id),
        ]);
        await client.query('DELETE FROM tags WHERE team_id = $1 AND id = $2', [teamId, tag]);
        await client.query('COMMIT');
      } finally {
        client.release();
      }
    };

    // Other tags' writes: attach then remove one side tag on one side card, in a loop per client.
    let sideRunning = false;
    const sideSamples: number[] = [];
    const sideLoop = async (client: number) => {
      for (let k = 0; sideRunning; k++) {
        const card = sideCards[(client * 37 + k) % SIDE_CARDS];
        const tag = side[(client + k) % SIDE_TAGS];
        sideSamples.push(
          await timed(
            async () =>
              void (await send(url(`/cards/${card}/tags`), {
                method: 'POST',
                auth,
                body: JSON.stringify({ id: tag }),
                expect: 204,
              })),
          ),
        );
        sideSamples.push(
          await timed(
            async () => void (await send(url(`/cards/${card}/tags/${tag}`), { method: 'DELETE', auth, expect: 204 })),
          ),
        );
      }
    };
    const withSide = async <T>(work: () => Promise<T>): Promise<T> => {
      sideRunning = true;
      const loops = Array.from({ length: options.side }, (_, c) => sideLoop(c));
      try {
        return await work();
      } finally {
        sideRunning = false;
        await Promise.all(loops);
      }
    };

    // The side writes alone, for as long as the deletes will take (a second), as the reference.
    await withSide(() => new Promise((resolve) => setTimeout(resolve, 1_000)));
    const sideAlone = summarize(sideSamples.splice(0));

    const app: number[] = [];
    const appWithSide: number[] = [];
    const floorMs: number[] = [];
    for (let round = 0; round <= options.n; round++) {
      const alone = await timed(async () => void (await appDelete(doomed[3 * round])));
      const during = await withSide(() => timed(async () => void (await appDelete(doomed[3 * round + 1]))));
      const floorRound = await timed(() => floorDelete(doomed[3 * round + 2]));
      if (round === 0) continue; // warm-up
      app.push(alone);
      appWithSide.push(during);
      floorMs.push(floorRound);
    }
    const sideDuring = summarize(sideSamples);
    const [{ left }] = await bench.db.query<Array<{ left: number }>>(
      'SELECT count(*)::int AS left FROM card_tags WHERE team_id = $1 AND tag_id = ANY($2::bigint[])',
      [teamId, doomed],
    );

    const summaries = {
      [`app DELETE tag on ${options.cards} cards`]: summarize(app),
      [`app DELETE, side writes running`]: summarize(appWithSide),
      [`floor delete on ${options.cards} cards`]: summarize(floorMs),
      'other tags attach/remove, alone': sideAlone,
      'other tags attach/remove, during deletes': sideDuring,
    };
    console.log(`tag-delete: ${options.n} measured deletes each (after 1 warm-up), ${options.side} side clients`);
    console.log(latencyTable(Object.entries(summaries).map(([name, summary]) => ({ name, summary }))));
    const appMedian = summarize(app).median;
    console.log(
      `\napp median ${appMedian.toFixed(1)} ms (target < 200 ms at c=1): ${appMedian < 200 ? 'met' : 'NOT MET'}`,
    );
    console.log(`app / floor (median) = ${(appMedian / summarize(floorMs).median).toFixed(2)}`);
    console.log(
      `other tags' writes during deletes: median ${sideDuring.median.toFixed(1)} ms, ` +
        `max ${sideDuring.max.toFixed(1)} ms ` +
        `(alone: ${sideAlone.median.toFixed(1)}, ${sideAlone.max.toFixed(1)}); a write that waited for a delete ` +
        `would take about its ${appMedian.toFixed(0)} ms`,
    );
    console.log(`card_tags rows of deleted tags left: ${left} (expected 0)`);
    const file = await writeResult('tag-delete', {
      benchmark: 'tag-delete',
      options,
      environment: environment({ database: bench.database.kind, postgres: await postgresVersion(bench.db) }),
      latencyMs: summaries,
      leftRows: left,
    });
    console.log(`\nwrote ${file}`);
    if (left !== 0) process.exitCode = 1;
  } finally {
    await floor.end();
    await bench.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
