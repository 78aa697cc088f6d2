/**
 * Attaching tags to a card: does the cost stay flat from 1 id to 100 (a fixed number of statements,
 * one transaction), or grow like a loop of one query per tag?
 *
 *   npm run bench:card-tags [-- --n 300 --warmup 50 --explain 1]
 *
 * Three variants, interleaved round by round, sequential, over real HTTP to the in-process app:
 *   attach 1 new      one tag the card does not have, on a fresh card each request
 *   attach 100 new    100 tags the card does not have, on a fresh card each request
 *   re-attach 100     the 100 tags one card already has (the idempotent path: nothing is inserted)
 * Reports median and p95 per variant, median(100 new) / median(1 new), and the SQL round trips one
 * request of each variant makes (counted at the pg client); writes bench/results/card-tags.json.
 */
import { randomBytes } from 'node:crypto';
import { ATTACH_TAGS, READ_CARD } from '../src/cards/card-queries';
import { countStatements, StatementCount } from '../support/statement-counter';
import { startBenchApp } from './support/bench-app';
import { send } from './support/http';
import { runInterleaved, summarize, Variant } from './support/latency';
import { environment, latencyTable, parseArgs, postgresVersion, writeResult } from './support/report';
import { explainAnalyze } from './support/explain';

const WORKSPACE_TAGS = 200; // project_id null
const PROJECT_TAGS = 100; // of the cards' project
const PER_REQUEST = 100; // the most one request may attach

/** Deterministic shuffle (mulberry32), so two runs send the same bodies. */
function shuffled<T>(items: T[], seed: number): T[] {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2), { n: 300, warmup: 50, explain: 0 });
  const rounds = options.warmup + options.n;
  const bench = await startBenchApp();
  try {
    // ---- seed, through ImportService (the CLI's import path) ----
    const teamId = `bench${Date.now().toString(36)}${randomBytes(4).toString('hex')}`;
    const userId = `${teamId}-member`;
    const secret = `bench-${randomBytes(16).toString('hex')}`;
    const auth = `Bearer ${secret}`;
    const projectId = '1';
    const tagIds = Array.from({ length: WORKSPACE_TAGS + PROJECT_TAGS }, (_, i) => String(i + 1));
    let nextCard = 1;
    const cardRange = (count: number) => Array.from({ length: count }, () => String(nextCard++));
    const oneNewCards = cardRange(rounds);
    const hundredNewCards = cardRange(rounds);
    const [reattachCard, countOneCard, countHundredCard, explainCard] = cardRange(4);
    const reattachTags = shuffled(tagIds, 7).slice(0, PER_REQUEST);

    const allCards = [...oneNewCards, ...hundredNewCards, reattachCard, countOneCard, countHundredCard, explainCard];
    await bench.importDocument({
      workspaces: [{ id: teamId, name: 'Card tags benchmark' }],
      users: [{ id: userId, name: 'Bench member', email: `member@${teamId}.example.com` }],
      members: [{ team_id: teamId, user_id: userId, role: 'member' }],
      tokens: [
        {
          id: 'bench-member',
          team_id: teamId,
          user_id: userId,
          token: secret,
          expires_at: null,
          actor: { type: 'user' },
        },
      ],
      projects: [{ team_id: teamId, id: projectId, title: 'Bench project' }],
      tags: tagIds.map((id, i) => ({
        team_id: teamId,
        id,
        project_id: i < WORKSPACE_TAGS ? null : projectId,
        name: `Tag ${id}`,
        color: 'blue',
      })),
      cards: allCards.map((id) => ({
        team_id: teamId,
        id,
        project_id: projectId,
        title: `Card ${id}`,
        owner_id: userId,
        members: [userId],
        tags: id === reattachCard ? reattachTags : [],
      })),
    });

    // Statistics as autovacuum would leave them a minute after the import; without this the planner
    // still believes the fresh tables are empty (see bench/README.md).
    await bench.db.query('ANALYZE tags, cards, card_members, card_tags');

    // ---- the bodies, built before any timing; every "new" request goes to a card with no tags yet ----
    const order = shuffled(tagIds, 42);
    const window = (i: number) => Array.from({ length: PER_REQUEST }, (_, k) => order[(i * 37 + k) % order.length]);
    const url = (cardId: string) => `${bench.baseUrl}/v1/${teamId}/cards/${cardId}/tags`;
    const attach = (cardId: string, ids: string[]) =>
      send(url(cardId), { method: 'POST', auth, body: JSON.stringify({ ids }), expect: 204 });
    const oneNewBodies = oneNewCards.map((_, i) => [order[(i * 7) % order.length]]);
    const hundredNewBodies = hundredNewCards.map((_, i) => window(i));
    const reattachBodies = Array.from({ length: rounds }, (_, i) => shuffled(reattachTags, 1000 + i));

    const variants: Variant[] = [
      { name: 'attach 1 new', run: async (i) => void (await attach(oneNewCards[i], oneNewBodies[i])) },
      { name: 'attach 100 new', run: async (i) => void (await attach(hundredNewCards[i], hundredNewBodies[i])) },
      { name: 're-attach 100', run: async (i) => void (await attach(reattachCard, reattachBodies[i])) },
    ];

    console.log(
      `card-tags: ${options.warmup} warm-up + ${options.n} measured requests per variant, interleaved, ` +
        `concurrency 1 (${bench.database.kind} PostgreSQL)`,
    );
    const samples = await runInterleaved(variants, options);

    // ---- round trips per request, after the measurement (the counter wraps pg.Client#query) ----
    const statements: Record<string, StatementCount> = {
      'attach 1 new': await countStatements(async () => void (await attach(countOneCard, [order[0]]))),
      'attach 100 new': await countStatements(async () => void (await attach(countHundredCard, window(0)))),
      're-attach 100': await countStatements(async () => void (await attach(reattachCard, reattachTags))),
    };
    const counts = Object.values(statements).map((s) => s.count);
    const sameStatementCount = counts.every((c) => c === counts[0]);

    // ---- every measured "new" request really inserted: the rows are all there ----
    const [{ rows: stored }] = await bench.db.query<Array<{ rows: number }>>(
      `SELECT count(*)::int AS rows FROM card_tags WHERE team_id = $1`,
      [teamId],
    );
    const expectedRows =
      rounds * 1 + rounds * PER_REQUEST + PER_REQUEST /* re-attach card */ + 1 + PER_REQUEST; /* counted */

    const summaries = Object.fromEntries(variants.map((v) => [v.name, summarize(samples[v.name])]));
    const one = summaries['attach 1 new'];
    const ratios = {
      'median(attach 100 new) / median(attach 1 new)': summaries['attach 100 new'].median / one.median,
      'median(re-attach 100) / median(attach 1 new)': summaries['re-attach 100'].median / one.median,
      'p95(attach 100 new) / p95(attach 1 new)': summaries['attach 100 new'].p95 / one.p95,
    };
    const postgres = await postgresVersion(bench.db);

    console.log();
    console.log(latencyTable(variants.map((v) => ({ name: v.name, summary: summaries[v.name] }))));
    console.log();
    for (const [name, value] of Object.entries(ratios)) console.log(`${name} = ${value.toFixed(2)}`);
    console.log();
    console.log(
      `SQL round trips per request: ${Object.entries(statements)
        .map(([name, s]) => `${name} ${s.count}`)
        .join(', ')}` +
        (sameStatementCount ? ' (equal)' : '  <-- NOT EQUAL: the statement count depends on the number of ids'),
    );
    for (const [i, text] of statements['attach 100 new'].statements.entries()) console.log(`  ${i + 1}. ${text}`);
    console.log(`card_tags rows written: ${stored} (expected ${expectedRows})`);

    const explain = options.explain
      ? await explainCardQueries(bench.db, teamId, projectId, explainCard, reattachCard, userId, window(1))
      : undefined;
    if (explain) for (const [name, plan] of Object.entries(explain)) console.log(`\nEXPLAIN ANALYZE ${name}\n${plan}`);

    const file = await writeResult('card-tags', {
      benchmark: 'card-tags',
      options: { n: options.n, warmup: options.warmup, concurrency: 1, interleaved: true },
      environment: environment({ database: bench.database.kind, postgres }),
      seed: { workspaceTags: WORKSPACE_TAGS, projectTags: PROJECT_TAGS, cards: allCards.length },
      latencyMs: summaries,
      ratios,
      statementsPerRequest: statements,
      sameStatementCount,
      cardTagRows: { stored, expected: expectedRows },
      explain,
    });
    console.log(`\nwrote ${file}`);
    if (!sameStatementCount || stored !== expectedRows) process.exitCode = 1;
  } finally {
    await bench.close();
  }
}

/** The plans of the card statements, on the seeded data, each in a transaction that is rolled back. */
async function explainCardQueries(
  db: import('typeorm').DataSource,
  teamId: string,
  projectId: string,
  freshCard: string,
  taggedCard: string,
  userId: string,
  ids: string[],
): Promise<Record<string, string>> {
  const actor = JSON.stringify({ user_id: userId, type: 'user' });
  const plans: Record<string, string> = {};
  plans['ATTACH_TAGS (100 new)'] = await explainAnalyze(db, ATTACH_TAGS, {
    teamId,
    cardId: freshCard,
    callerId: userId,
    tagIds: ids,
    listedOnly: false,
    allStorable: true,
    actor,
    idempotencyKey: null,
    keyClaim: null,
    traceParent: null,
    ifMatch: null,
  });
  plans['READ_CARD (100 tags)'] = await explainAnalyze(db, READ_CARD, { teamId, cardId: taggedCard, callerId: userId });
  return plans;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
