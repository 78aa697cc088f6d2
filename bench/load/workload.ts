/**
 * The seeded workspace and the benchmarked operations. Seeding goes through ImportService (the path
 * of `npm run cli -- import`): workspace A, 100 pages with one 10-child parent; workspace B, 100,000
 * pages (--quick: 20,000) with one 10,000-child parent, a 200-deep chain and bushy trees over 8 more
 * projects (bench/pages/page-workspace.ts), plus 1,000 note templates, 1,000 workspace-wide tags and
 * 10,000 cards in B.
 *
 * Every operation draws its requests from one generator shared by both servers, so every write is a
 * new one (titles and positions vary per request, moves always change project, tag attaches insert
 * pairs the card does not have yet), and the servers measured in turns get one sequence of work.
 */
import { ListCursor } from '../../src/common/list-cursor';
import { importDocuments, PageWorkspace, planPageWorkspace } from '../pages/page-workspace';
import type { BenchApp } from '../support/bench-app';
import { followedReorders } from '../pages/reorders';
import { send } from '../support/http';
import { pick, randomBelow, seededRandom } from '../support/random';

export const TEMPLATES = 1_000;
export const TAGS = 1_000;
export const CARDS = 10_000;
/** Cards 1..4,000 take 1-id attaches, 4,001..9,000 the 100-id ones, 9,001..10,000 (10 tags each) are read. */
const ONE_ID_CARDS = [1, 4_000] as const;
const HUNDRED_ID_CARDS = [4_001, 9_000] as const;
const READ_CARDS = [9_001, 10_000] as const;
const TAGS_PER_READ_CARD = 10;
/** Cards 10,001..12,000 of B carry tags 1..25 each, which the tag removals take off one by one. */
const REMOVE_CARDS = [CARDS + 1, CARDS + 2_000] as const;
const TAGS_PER_REMOVE_CARD = 25;
/** Workspace A's workspace-wide tags, listed 100 per answer: the first answer against the last. */
export const LIST_TAGS = 5_000;
const TAGS_PER_ANSWER = 100;
const listTagName = (n: number) => `List tag ${String(n).padStart(5, '0')}`;
const PAGES_PER_ANSWER = 50;

export interface Workspaces {
  a: PageWorkspace;
  b: PageWorkspace;
  /** The aliases of B's shared pages, and of its one shared page of 100 KB. */
  shared: { aliases: string[]; large: string };
  /** The cursors of B's page list, 50 per answer, walked to the end once after seeding (null: the first answer). */
  pageListCursors: Array<string | null>;
}

/** Walks B's page list to the end through the app, keeping every answer's cursor. */
async function walkPageList(bench: BenchApp, b: PageWorkspace): Promise<Array<string | null>> {
  const cursors: Array<string | null> = [null];
  for (;;) {
    const cursor = cursors[cursors.length - 1];
    const url = `${bench.baseUrl}/v1/${b.teamId}/pages?limit=${PAGES_PER_ANSWER}${cursor ? `&cursor=${cursor}` : ''}`;
    const answer = JSON.parse((await send(url, { method: 'GET', auth: b.auth, expect: 200 })).text) as {
      cursor: string | null;
    };
    if (!answer.cursor) return cursors;
    cursors.push(answer.cursor);
  }
}

export const SHARED_PAGES = 1_000;
/** About 2 KB of what an editor stores: headings, paragraphs, a list, a link, an image. */
const SHARED_CONTENT =
  '<h2>Overview</h2><p>This page is <b>shared</b> with anyone who has its link. It describes the plan for ' +
  'the quarter, <a href="https://example.com/roadmap">the roadmap</a> and who does what.</p>' +
  '<ul><li>Ship the public pages</li><li>Measure them against the floor</li><li>Write it down</li></ul>' +
  '<p><img src="https://example.com/chart.png" alt="A chart"></p>' +
  '<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore ' +
  'et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris.</p>'.repeat(6);

/** Shares SHARED_PAGES of B's pages with SHARED_CONTENT and one more with 100 KB of it, by SQL. */
async function sharePages(bench: BenchApp, b: PageWorkspace): Promise<Workspaces['shared']> {
  const ids = b.pageIds.slice(0, SHARED_PAGES + 1);
  const large = SHARED_CONTENT.repeat(Math.ceil(100_000 / SHARED_CONTENT.length)).slice(0, 100_000);
  // A SELECT around the UPDATE: TypeORM answers an UPDATE with [rows, count].
  const share = `WITH shared AS (UPDATE pages SET is_public = true, content = $3
                                  WHERE team_id = $1 AND id = ANY($2::bigint[]) RETURNING alias_id)
                 SELECT alias_id::text FROM shared`;
  const rows: Array<{ alias_id: string }> = await bench.db.query(share, [b.teamId, ids.slice(1), SHARED_CONTENT]);
  const [largeRow]: Array<{ alias_id: string }> = await bench.db.query(share, [b.teamId, [ids[0]], large]);
  return { aliases: rows.map((row) => row.alias_id), large: largeRow.alias_id };
}

export interface Request {
  method: 'GET' | 'PATCH' | 'POST' | 'DELETE';
  path: string;
  body?: string;
  headers?: Record<string, string>;
}

export interface Operation {
  name: string;
  /** Sent with every request of the operation. */
  auth: string;
  /** The next request; shared by every server's runs. */
  next(): Request;
  /** Status of success. */
  status: number;
  /** Said in BENCHMARKS.md: what each request does. */
  description: string;
  /** True once requests repeat work already done (an idempotent re-attach instead of an insert). */
  exhausted?(): boolean;
  /** Left out of --quick. */
  full?: boolean;
}

export async function seed(bench: BenchApp, quick: boolean, log: (line: string) => void): Promise<Workspaces> {
  const a = planPageWorkspace('a', { total: 100, family: 10, chainDepth: 20, otherProjects: 2, seed: 1 });
  const b = planPageWorkspace('b', {
    total: quick ? 20_000 : 100_000,
    family: 10_000,
    chainDepth: 200,
    otherProjects: 8,
    seed: 2,
  });
  for (const ws of [a, b]) {
    const start = performance.now();
    // ANALYZE after each document, as autovacuum would between imports (see bench/README.md, pages).
    for (const doc of importDocuments(ws, 5_000)) {
      await bench.importDocument(doc);
      await bench.db.query('ANALYZE pages');
    }
    log(`seeded ${ws.teamId}: ${ws.pages.length} pages in ${((performance.now() - start) / 1000).toFixed(1)} s`);
  }
  const start = performance.now();
  const team = b.teamId;
  await bench.importDocument({
    note_templates: Array.from({ length: TEMPLATES }, (_, i) => ({
      team_id: team,
      id: `tpl${i + 1}`,
      owner_id: b.userId,
      title: `Template ${i + 1}`,
      context: 'Seeded by bench/load',
      sections: [
        { title: 'Yesterday', description: '' },
        { title: 'Today', description: '' },
      ],
      ai_actions: false,
      is_shared: false,
    })),
    tags: Array.from({ length: TAGS }, (_, i) => ({
      team_id: team,
      id: String(i + 1),
      project_id: null,
      name: `Tag ${i + 1}`,
      color: 'blue',
    })),
  });
  for (let first = 1; first <= CARDS; first += 2_500) {
    await bench.importDocument({
      cards: Array.from({ length: 2_500 }, (_, k) => {
        const id = first + k;
        const read = id >= READ_CARDS[0];
        return {
          team_id: team,
          id: String(id),
          project_id: '1',
          title: `Card ${id}`,
          owner_id: b.userId,
          members: [b.userId],
          tags: read
            ? Array.from({ length: TAGS_PER_READ_CARD }, (_, t) => String(((id * 7 + t * 97) % TAGS) + 1))
            : [],
        };
      }),
    });
  }
  const removable = REMOVE_CARDS[1] - REMOVE_CARDS[0] + 1;
  await bench.importDocument({
    tags: Array.from({ length: LIST_TAGS }, (_, i) => ({
      team_id: a.teamId,
      id: String(i + 1),
      project_id: null,
      name: listTagName(i + 1),
      color: 'green',
    })),
    cards: Array.from({ length: removable }, (_, k) => ({
      team_id: team,
      id: String(REMOVE_CARDS[0] + k),
      project_id: '1',
      title: `Card ${REMOVE_CARDS[0] + k}`,
      owner_id: b.userId,
      members: [b.userId],
      tags: Array.from({ length: TAGS_PER_REMOVE_CARD }, (_, t) => String(t + 1)),
    })),
  });
  const shared = await sharePages(bench, b);
  // Statistics and visibility map as autovacuum would leave them a minute after the import.
  await bench.db.query(
    'VACUUM (ANALYZE) pages, page_archives, page_members, page_bookmarks, page_watchers, page_comments, projects, ' +
      'note_templates, note_template_favourites, tags, cards, card_members, card_tags, tokens, members, ' +
      'public_page_aliases',
  );
  log(
    `seeded ${TEMPLATES} templates, ${TAGS} tags, ${CARDS + removable} cards, ${LIST_TAGS} listed tags ` +
      `and vacuumed in ${((performance.now() - start) / 1000).toFixed(1)} s`,
  );
  const pageListCursors = await walkPageList(bench, b);
  log(`walked B's page list: ${pageListCursors.length} answers`);
  return { a, b, shared, pageListCursors };
}

/** The operations in the order they run: reads first (the attaches grow the tags' card counts a card read sums). */
export function operations({ a, b, shared, pageListCursors }: Workspaces, quick: boolean): Operation[] {
  const random = seededRandom(5);
  let counter = 0;
  const unique = () => `${Date.now().toString(36)}-${counter++}`;
  const pagePath = (ws: PageWorkspace, id: string) => `/v1/${ws.teamId}/pages/${id}`;
  const json = (value: object) => JSON.stringify(value);
  const keyed = (request: Request): Request => ({ ...request, headers: { 'idempotency-key': `bench-${unique()}` } });

  // Leaves of projects 3..10 of B: a move carries its subtree, so moving leaves keeps every move one page.
  const hasChildren = new Set(b.pages.map((p) => p.parent_page_id));
  const movers = b.pages.filter((p) => Number(p.project_id) >= 3 && !hasChildren.has(p.id)).map((p) => p.id);
  const moverProject = new Map(b.pages.map((p) => [p.id, Number(p.project_id)]));
  let nextMover = 0;
  const copySources = b.pages.filter((p) => Number(p.project_id) >= 3).map((p) => p.id);

  const reorders = (ws: PageWorkspace) => {
    const next = followedReorders(random, ws.family.children);
    return (): Request => {
      const { page, position } = next();
      return { method: 'PATCH', path: pagePath(ws, page), body: json({ position }) };
    };
  };

  const attach = (name: string, cards: readonly [number, number], perRequest: number): Operation => {
    const span = cards[1] - cards[0] + 1;
    const capacity = span * Math.floor(TAGS / perRequest);
    let k = 0;
    return {
      name,
      auth: b.auth,
      status: 204,
      description:
        `POST {"ids": [${perRequest === 1 ? 'one id' : `${perRequest} ids`}]} ` +
        `to cards ${cards[0]}..${cards[1]} in turn; ` +
        `each pass over the cards takes the next ${perRequest === 1 ? 'tag' : `${perRequest} tags`}, ` +
        `so the first ${capacity.toLocaleString('en')} requests all insert new pairs ` +
        '(later ones would re-attach: idempotent, no insert)',
      next: () => {
        const i = k++;
        const card = cards[0] + (i % span);
        const window = Math.floor(i / span) % Math.floor(TAGS / perRequest);
        const ids = Array.from({ length: perRequest }, (_, t) => String(window * perRequest + t + 1));
        return { method: 'POST', path: `/v1/${b.teamId}/cards/${card}/tags`, body: json({ ids }) };
      },
      exhausted: () => k > capacity,
    };
  };

  /** Takes tag 1 off every removal card, then tag 2, ...: each request removes a pair that is there. */
  const removal = (): Operation => {
    const span = REMOVE_CARDS[1] - REMOVE_CARDS[0] + 1;
    const capacity = span * TAGS_PER_REMOVE_CARD;
    let k = 0;
    return {
      name: 'tag remove (1 id)',
      auth: b.auth,
      status: 204,
      description:
        `DELETE /cards/{card}/tags/{tag} on cards ${REMOVE_CARDS[0]}..${REMOVE_CARDS[1]} in turn, each pass the ` +
        `next of the ${TAGS_PER_REMOVE_CARD} tags they carry, so the first ${capacity.toLocaleString('en')} ` +
        'requests all take a tag off (later ones would change nothing)',
      next: () => {
        const i = k++;
        const card = REMOVE_CARDS[0] + (i % span);
        const tag = (Math.floor(i / span) % TAGS_PER_REMOVE_CARD) + 1;
        return { method: 'DELETE', path: `/v1/${b.teamId}/cards/${card}/tags/${tag}` };
      },
      exhausted: () => k > capacity,
    };
  };

  /** The first answer of A's tag list, or the last: the cursor after the last-but-one answer's last tag. */
  const tagList = (which: 'first' | 'last'): Operation => {
    const after = LIST_TAGS - TAGS_PER_ANSWER;
    const cursor = ListCursor.encode('tags', {}, [listTagName(after).toLowerCase(), String(after)]);
    const query = which === 'first' ? `limit=${TAGS_PER_ANSWER}` : `limit=${TAGS_PER_ANSWER}&cursor=${cursor}`;
    return {
      name: `tag list ${which} 100 (${LIST_TAGS} tags)`,
      auth: a.auth,
      status: 200,
      description:
        `GET /tags?${which === 'first' ? 'limit=100' : 'limit=100&cursor=...'} of workspace A's ` +
        `${LIST_TAGS.toLocaleString('en')} workspace-wide tags: the ${which} answer of 100 (keyset)`,
      next: () => ({ method: 'GET', path: `/v1/${a.teamId}/tags?${query}` }),
    };
  };

  const templateTitle = (): Request => ({
    method: 'PATCH',
    path: `/v1/${b.teamId}/notes/templates/tpl${randomBelow(random, TEMPLATES) + 1}`,
    body: json({ title: `Title ${unique()}` }),
  });
  const pageTitle = (): Request => ({
    method: 'PATCH',
    path: pagePath(b, pick(random, b.pageIds)),
    body: json({ title: `Title ${unique()}` }),
  });

  const ops: Operation[] = [
    {
      name: 'template GET',
      full: true,
      auth: b.auth,
      status: 200,
      description: `GET of a random template of ${TEMPLATES.toLocaleString('en')}`,
      next: () => ({ method: 'GET', path: `/v1/${b.teamId}/notes/templates/tpl${randomBelow(random, TEMPLATES) + 1}` }),
    },
    {
      name: 'page GET',
      auth: b.auth,
      status: 200,
      description:
        `GET of a random page of ${b.pages.length.toLocaleString('en')} ` +
        '(its position is counted from the sibling blocks: migration 0006)',
      next: () => ({ method: 'GET', path: pagePath(b, pick(random, b.pageIds)) }),
    },
    {
      name: 'card GET',
      full: true,
      auth: b.auth,
      status: 200,
      description:
        `GET of a random card of ${READ_CARDS[1] - READ_CARDS[0] + 1} with ${TAGS_PER_READ_CARD} tags each ` +
        "(with each tag's card count)",
      next: () => ({
        method: 'GET',
        path: `/v1/${b.teamId}/cards/${READ_CARDS[0] + randomBelow(random, READ_CARDS[1] - READ_CARDS[0] + 1)}`,
      }),
    },
    {
      name: 'public page GET',
      auth: '',
      status: 200,
      description:
        `GET /p/{alias_id} of a random one of ${SHARED_PAGES.toLocaleString('en')} shared pages ` +
        `(${SHARED_CONTENT.length.toLocaleString('en')} characters of content), as a browser asks: no token, HTML`,
      next: () => ({ method: 'GET', path: `/p/${pick(random, shared.aliases)}`, headers: { accept: 'text/html' } }),
    },
    {
      name: 'public page GET (100 KB)',
      auth: '',
      status: 200,
      description: 'GET /p/{alias_id} of the shared page of 100,000 characters of content, as a browser asks',
      next: () => ({ method: 'GET', path: `/p/${shared.large}`, headers: { accept: 'text/html' } }),
    },
    {
      name: 'template PATCH title',
      auth: b.auth,
      status: 200,
      description:
        `PATCH {"title": new} of a random template of ${TEMPLATES.toLocaleString('en')} ` +
        '(a new title each request)',
      next: templateTitle,
    },
    {
      name: `page title PATCH (${b.pages.length / 1000}k pages)`,
      auth: b.auth,
      status: 200,
      description: `PATCH {"title": new} of a random page of ${b.pages.length.toLocaleString('en')}`,
      next: pageTitle,
    },
    // The same writes with a new Idempotency-Key each (the baseline and the floor ignore the header).
    {
      name: 'keyed template PATCH title',
      auth: b.auth,
      status: 200,
      description:
        'template PATCH title with a new Idempotency-Key each request: the key is claimed and the answer kept',
      next: () => keyed(templateTitle()),
    },
    {
      name: `keyed page title PATCH (${b.pages.length / 1000}k pages)`,
      auth: b.auth,
      status: 200,
      description: 'page title PATCH with a new Idempotency-Key each request: the key is claimed and the answer kept',
      next: () => keyed(pageTitle()),
    },
    ...[
      {
        name: 'page title PATCH (100 pages)',
        full: true,
        auth: a.auth,
        status: 200,
        description: `PATCH {"title": new} of a random page of ${a.pages.length}`,
        next: (): Request => ({
          method: 'PATCH',
          path: pagePath(a, pick(random, a.pageIds)),
          body: json({ title: `Title ${unique()}` }),
        }),
      },
    ],
    {
      name: 'page reorder (10 siblings)',
      auth: a.auth,
      status: 200,
      description:
        'PATCH {"position": p} of a random child of the 10-child parent, ' +
        "p random in 0..9 but never the page's own index, so every request moves it",
      next: reorders(a),
    },
    {
      name: 'page reorder (10,000 siblings)',
      auth: b.auth,
      status: 200,
      description:
        'PATCH {"position": p} of a random child of the 10,000-child parent, ' +
        "p random in 0..9,999 but never the page's own index",
      next: reorders(b),
    },
    {
      name: 'page move across projects',
      auth: b.auth,
      status: 200,
      description:
        'PATCH {"project_id": another} of leaf pages of projects 3..10 in turn ' +
        `(${movers.length.toLocaleString('en')} of them), each to the next project: lands last at its root`,
      next: () => {
        const id = movers[nextMover++ % movers.length];
        const target = ((moverProject.get(id)! - 3 + 1) % 8) + 3;
        moverProject.set(id, target);
        return { method: 'PATCH', path: pagePath(b, id), body: json({ project_id: String(target) }) };
      },
    },
    {
      name: 'page create',
      auth: b.auth,
      status: 201,
      description: 'POST /pages {"project_id": "3", "title": new}: a new page, last at the root of project 3',
      next: () => ({
        method: 'POST',
        path: `/v1/${b.teamId}/pages`,
        body: json({ project_id: '3', title: `New ${unique()}` }),
      }),
    },
    {
      name: 'page copy (one page)',
      auth: b.auth,
      status: 201,
      description: `POST /pages/{id}/copy {} of a random page of projects 3..10: lands right after it`,
      next: () => ({ method: 'POST', path: `${pagePath(b, pick(random, copySources))}/copy`, body: '{}' }),
    },
    attach('tag attach (1 id)', ONE_ID_CARDS, 1),
    attach('tag attach (100 ids)', HUNDRED_ID_CARDS, 100),
    removal(),
    tagList('first'),
    tagList('last'),
    {
      name: `page list 50 (${b.pages.length / 1000}k pages)`,
      auth: b.auth,
      status: 200,
      description:
        `GET /pages?limit=50&cursor=... of B's ${b.pages.length.toLocaleString('en')} pages in tree order, at a ` +
        `random one of the ${pageListCursors.length.toLocaleString('en')} answers of a walk made after seeding ` +
        "(keyset, as of the walk's first answer: docs/page-list.md)",
      next: () => {
        const cursor = pick(random, pageListCursors);
        return {
          method: 'GET',
          path: `/v1/${b.teamId}/pages?limit=${PAGES_PER_ANSWER}${cursor ? `&cursor=${cursor}` : ''}`,
        };
      },
    },
  ];
  // --quick stays short by leaving out two of the three GETs and the small title case.
  return ops.filter((op) => !(quick && op.full));
}
