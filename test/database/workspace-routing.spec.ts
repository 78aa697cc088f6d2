import { routingViolations } from '../support/routing/workspace-routing';

const workspaceTables = new Set([
  'pages',
  'page_members',
  'page_archives',
  'idempotency_keys',
  'webhooks',
  'webhook_events',
  'webhook_deliveries',
  'webhook_streams',
]);

const check = (sql: string, teamParam = '$1') => routingViolations(sql, { workspaceTables, teamParam });

/** Expects exactly one violation per pattern, in any order. */
async function expectViolations(sql: string, ...patterns: RegExp[]) {
  const violations = await check(sql);
  expect(violations).toHaveLength(patterns.length);
  for (const pattern of patterns) expect(violations).toContainEqual(expect.stringMatching(pattern));
}

describe('routingViolations, rule A: every workspace table is constrained to the team parameter', () => {
  describe('at the level that reads it', () => {
    it.each([
      ['the WHERE', 'SELECT p.id FROM pages p WHERE p.team_id = $1 AND p.id = $2'],
      ['the parameter first, cast', 'SELECT p.id FROM pages p WHERE $1::text = p.team_id'],
      ['an unqualified team_id when the table is alone', 'SELECT id FROM pages WHERE team_id = $1'],
      ['the table name without an alias', 'SELECT id FROM pages WHERE pages.team_id = $1'],
      [
        'the ON of an inner join',
        'SELECT 1 FROM pages p JOIN page_members m ON m.team_id = $1 AND m.page_id = p.id WHERE p.team_id = $1',
      ],
      [
        'the ON of a left join, for its nullable side',
        'SELECT 1 FROM pages p LEFT JOIN page_archives a ON a.team_id = $1 AND a.page_id = p.id WHERE p.team_id = $1',
      ],
      ['a table that is not a workspace table', 'SELECT * FROM users u WHERE u.id = $2'],
      ['FOR UPDATE OF an alias, which reads nothing', 'SELECT 1 FROM pages p WHERE p.team_id = $1 FOR UPDATE OF p'],
    ])('passes with %s', async (_, sql) => {
      expect(await check(sql)).toEqual([]);
    });

    it('fails without a condition, naming the table, its alias, where it is and the rule', async () => {
      expect(await check('SELECT p.id\n  FROM pages p WHERE p.id = $2')).toEqual([
        'Rule A (routing) [main query, line 2]: pages p: no p.team_id = $1 in its WHERE or JOIN ON',
      ]);
    });

    it('fails for a join on team_id between tables: Citus cannot route by it', async () => {
      await expectViolations(
        `SELECT 1 FROM pages p JOIN page_members m ON m.team_id = p.team_id AND m.page_id = p.id
          WHERE p.team_id = $1`,
        /page_members m: no m\.team_id = \$1/,
      );
    });

    it.each([
      ['another parameter', 'SELECT 1 FROM pages p WHERE p.team_id = $2', /pages p/],
      ['a condition under OR', 'SELECT 1 FROM pages p WHERE (p.team_id = $1 OR p.id = $2)', /pages p/],
      ['a comparison other than =', 'SELECT 1 FROM pages p WHERE p.team_id >= $1', /pages p/],
      [
        'an unqualified team_id with two tables in scope',
        'SELECT 1 FROM pages p, webhooks w WHERE team_id = $1 AND w.team_id = $1',
        /pages p/,
      ],
      [
        'the ON of a left join for its preserved side',
        'SELECT 1 FROM pages p LEFT JOIN page_archives a ON p.team_id = $1 AND a.team_id = $1',
        /pages p/,
      ],
      [
        'a condition of another level (the outer query)',
        'SELECT (SELECT count(*) FROM page_members m WHERE m.page_id = p.id) FROM pages p WHERE p.team_id = $1',
        /scalar subquery, line 1\]: page_members m/,
      ],
    ])('fails with %s', async (_, sql, pattern) => {
      await expectViolations(sql, pattern);
    });

    it('reads the team parameter it is given', async () => {
      expect(await check('SELECT 1 FROM pages p WHERE p.team_id = $2', '$2')).toEqual([]);
      expect(await check('SELECT 1 FROM pages p WHERE p.team_id = $1', '$2')).toHaveLength(1);
    });
  });

  describe('in every place a statement reads a table', () => {
    it.each([
      ['a CTE', 'WITH t AS (SELECT p.id FROM pages p WHERE p.team_id = $1) SELECT * FROM t'],
      [
        'both terms of a recursive CTE',
        `WITH RECURSIVE subtree AS (
           SELECT id FROM pages WHERE team_id = $1 AND id = $2
           UNION ALL
           SELECT c.id FROM pages c JOIN subtree s ON c.team_id = $1 AND c.parent_id = s.id
         ) SELECT id FROM subtree`,
      ],
      ['a subquery in FROM', 'SELECT * FROM (SELECT p.id FROM pages p WHERE p.team_id = $1) x'],
      [
        'an EXISTS',
        `SELECT EXISTS (SELECT 1 FROM page_members m WHERE m.team_id = $1 AND m.page_id = p.id)
           FROM pages p WHERE p.team_id = $1`,
      ],
      [
        'a LATERAL subquery',
        `SELECT * FROM pages p CROSS JOIN LATERAL (
           SELECT a.archived_by FROM page_archives a WHERE a.team_id = $1 AND a.page_id = p.id) a
          WHERE p.team_id = $1`,
      ],
      ['an IN subquery', 'SELECT 1 WHERE $2 IN (SELECT id FROM pages WHERE team_id = $1)'],
      ['a CTE named like a table, which hides it', 'WITH pages AS (SELECT 1 AS id) SELECT id FROM pages'],
    ])('passes when %s is constrained', async (_, sql) => {
      expect(await check(sql)).toEqual([]);
    });

    it.each([
      ['a CTE', 'WITH t AS (SELECT p.id FROM pages p WHERE p.id = $2) SELECT * FROM t', /\[CTE t, line 1\]: pages p/],
      [
        'the recursive term of a recursive CTE',
        `WITH RECURSIVE subtree AS (
           SELECT id FROM pages WHERE team_id = $1 AND id = $2
           UNION ALL
           SELECT c.id FROM pages c JOIN subtree s ON c.parent_id = s.id
         ) SELECT id FROM subtree`,
        /\[CTE subtree > recursive term, line 4\]: pages c: no c\.team_id = \$1/,
      ],
      ['a subquery in FROM', 'SELECT * FROM (SELECT p.id FROM pages p) x', /\[subquery x, line 1\]: pages p/],
      [
        'an EXISTS',
        `SELECT EXISTS (SELECT 1 FROM page_members m WHERE m.team_id = p.team_id AND m.page_id = p.id)
           FROM pages p WHERE p.team_id = $1`,
        /\[EXISTS subquery, line 1\]: page_members m: no m\.team_id = \$1/,
      ],
      [
        'a LATERAL subquery',
        `SELECT * FROM pages p CROSS JOIN LATERAL (
           SELECT a.archived_by FROM page_archives a WHERE a.team_id = p.team_id AND a.page_id = p.id) a
          WHERE p.team_id = $1`,
        /\[LATERAL subquery a, line 2\]: page_archives a/,
      ],
      [
        'a subquery in a CTE in a subquery',
        `SELECT (WITH x AS (SELECT ARRAY(SELECT id FROM pages) AS ids) SELECT ids FROM x)`,
        /\[scalar subquery > CTE x > ARRAY subquery, line 1\]: pages: no pages\.team_id = \$1/,
      ],
    ])('fails when %s is not', async (_, sql, pattern) => {
      await expectViolations(sql, pattern);
    });
  });

  describe('UPDATE and DELETE: the target by its WHERE, the FROM and USING tables as in a SELECT', () => {
    it.each([
      ['an UPDATE', 'UPDATE pages SET title = $2 WHERE team_id = $1 AND id = $3'],
      [
        'an UPDATE ... FROM',
        `WITH n AS (SELECT $1::text AS team_id, $2::bigint AS id)
         UPDATE pages p SET title = 'x' FROM n WHERE p.team_id = $1 AND p.id = n.id`,
      ],
      ['a DELETE', 'DELETE FROM page_archives a WHERE a.team_id = $1 AND a.page_id = $2'],
      [
        'a DELETE ... USING',
        'DELETE FROM page_archives a USING pages p WHERE a.team_id = $1 AND p.team_id = $1 AND a.page_id = p.id',
      ],
    ])('passes %s constrained to the team', async (_, sql) => {
      expect(await check(sql)).toEqual([]);
    });

    it('fails an UPDATE ... FROM whose target joins the team of the FROM row', async () => {
      await expectViolations(
        `WITH n AS (SELECT p.team_id, p.id FROM pages p WHERE p.team_id = $1)
         UPDATE pages p SET title = 'x' FROM n WHERE p.team_id = n.team_id AND p.id = n.id`,
        /\[main query, line 2\]: UPDATE pages p: no p\.team_id = \$1 in its WHERE/,
      );
    });

    it('fails an unqualified team_id beside a FROM, and a FROM table that is not constrained', async () => {
      await expectViolations(
        'UPDATE pages SET title = $2 FROM page_members m WHERE team_id = $1 AND m.page_id = pages.id',
        /UPDATE pages: no pages\.team_id/,
        /UPDATE \.\.\. FROM page_members m: no m\.team_id/,
      );
    });

    it('fails a DELETE ... USING a table that is not constrained', async () => {
      await expectViolations(
        'DELETE FROM page_archives a USING pages p WHERE a.team_id = $1 AND a.page_id = p.id',
        /DELETE \.\.\. USING pages p/,
      );
    });

    it('fails a DELETE whose rows are chosen by a subquery of another workspace', async () => {
      await expectViolations(
        'DELETE FROM idempotency_keys WHERE (team_id, key) IN (SELECT team_id, key FROM idempotency_keys LIMIT $2)',
        /\[main query, line 1\]: DELETE FROM idempotency_keys: no idempotency_keys\.team_id/,
        /\[IN\/ANY subquery, line 1\]: idempotency_keys/,
      );
    });
  });

  describe('INSERT: routed by the team_id it inserts', () => {
    it.each([
      ['VALUES of the parameter', 'INSERT INTO webhooks (team_id, url) VALUES ($1, $2), ($1::text, $3)'],
      ['a SELECT of the parameter', 'INSERT INTO webhooks (team_id, url) SELECT $1, $2'],
      [
        'the team_id of a constrained row (INSERT ... SELECT)',
        `INSERT INTO page_archives (team_id, page_id)
         SELECT c.team_id, c.id FROM pages c WHERE c.team_id = $1 AND c.parent_id = $2`,
      ],
      [
        "a CTE's RETURNING of the team_id it inserted",
        `WITH announced AS (
           INSERT INTO webhook_events (team_id, type) VALUES ($1, $2) RETURNING team_id, id
         ), fanned_out AS (
           INSERT INTO webhook_deliveries (team_id, webhook_id, event_id)
           SELECT a.team_id, w.id, a.id FROM announced a JOIN webhooks w ON w.team_id = $1
           RETURNING team_id, webhook_id
         )
         INSERT INTO webhook_streams (team_id, webhook_id) SELECT team_id, webhook_id FROM fanned_out`,
      ],
      [
        'the team_id of a whole row that is constrained',
        `WITH target AS (SELECT p AS page FROM pages p WHERE p.team_id = $1 AND p.id = $2)
         INSERT INTO page_archives (team_id, page_id) SELECT (t.page).team_id, (t.page).id FROM target t`,
      ],
      [
        'UNION arms that both insert the parameter',
        'INSERT INTO webhooks (team_id, url) SELECT $1, $2 UNION ALL SELECT $1, $3',
      ],
    ])('passes with %s', async (_, sql) => {
      expect(await check(sql)).toEqual([]);
    });

    it.each<[string, string, ...RegExp[]]>([
      ['VALUES of another parameter', 'INSERT INTO webhooks (team_id, url) VALUES ($2, $1)', /INSERT INTO webhooks/],
      ['no column list', 'INSERT INTO webhooks VALUES ($1, $2)', /team_id is not in its column list/],
      [
        'the team_id of rows of every workspace',
        `WITH a AS (SELECT d.team_id FROM webhook_deliveries d WHERE d.state = 'pending')
         INSERT INTO webhook_streams (team_id) SELECT team_id FROM a`,
        /\[CTE a, line 1\]: webhook_deliveries d/,
        /\[main query, line 2\]: INSERT INTO webhook_streams: the team_id it inserts is neither \$1/,
      ],
      [
        'one UNION arm of another team',
        'INSERT INTO webhooks (team_id, url) SELECT $1, $2 UNION ALL SELECT $3, $2',
        /INSERT INTO webhooks/,
      ],
    ])('fails with %s', async (_, sql, ...patterns) => {
      await expectViolations(sql, ...patterns);
    });
  });

  it('throws the syntax error of a statement that does not parse', async () => {
    await expect(check('SELEC 1')).rejects.toThrow(/syntax error/);
  });

  it('refuses a team parameter that is not positional', async () => {
    await expect(check('SELECT 1', ':teamId')).rejects.toThrow(/positional/);
  });
});

describe('routingViolations, rule B: no non-immutable function where Citus refuses one in a write', () => {
  const upsert = (set: string) =>
    `INSERT INTO webhook_streams AS s (team_id, webhook_id, next_attempt_at) VALUES ($1, $2, now())
     ON CONFLICT (team_id, webhook_id) DO UPDATE SET ${set}`;

  it.each([
    ['a column of the new row', upsert('next_attempt_at = excluded.next_attempt_at')],
    ['an immutable expression', upsert('last_event_id = GREATEST(s.last_event_id, excluded.last_event_id) + 0')],
    ['a CASE over columns and parameters', upsert('next_attempt_at = CASE WHEN $3 THEN excluded.next_attempt_at END')],
    ['DO NOTHING', 'INSERT INTO webhooks (team_id) VALUES ($1) ON CONFLICT DO NOTHING'],
  ])('passes ON CONFLICT DO UPDATE SET with %s', async (_, sql) => {
    expect(await check(sql)).toEqual([]);
  });

  it('fails ON CONFLICT DO UPDATE SET with now(), saying where and which function', async () => {
    expect(await check(upsert('next_attempt_at = now()'))).toEqual([
      'Rule B (immutable) [main query, line 2]: ON CONFLICT DO UPDATE SET next_attempt_at: now() [stable]',
    ]);
  });

  it.each([
    ['now() in a COALESCE', upsert('next_attempt_at = COALESCE(s.next_attempt_at, now())'), /now\(\) \[stable\]$/],
    ['CURRENT_TIMESTAMP', upsert('next_attempt_at = CURRENT_TIMESTAMP'), /CURRENT_TIMESTAMP \[stable\]$/],
    ['random()', upsert('last_event_id = (random() * 10)::bigint'), /SET last_event_id: random\(\) \[volatile\]$/],
    ['a function in its WHERE', `${upsert('last_event_id = 1')} WHERE s.next_attempt_at < now()`, /WHERE: now\(\)/],
  ])('fails ON CONFLICT DO UPDATE with %s', async (_, sql, pattern) => {
    await expectViolations(sql, pattern);
  });

  it.each([
    ['now() alone (evaluated once)', "UPDATE pages SET time_updated = now(), title = 'x' WHERE team_id = $1"],
    ['an immutable function of a column', 'UPDATE pages SET title = lower(title) WHERE team_id = $1'],
    ['a CASE over columns', 'UPDATE pages SET title = CASE WHEN $2 THEN title END WHERE team_id = $1'],
    [
      'a clock taken once in a CTE',
      `WITH clock AS MATERIALIZED (SELECT now() AS now)
       UPDATE pages p SET time_updated = CASE WHEN $2 THEN c.now ELSE p.time_updated END
         FROM clock c WHERE p.team_id = $1`,
    ],
  ])('passes UPDATE SET with %s', async (_, sql) => {
    expect(await check(sql)).toEqual([]);
  });

  it.each([
    [
      'now() and a column',
      `UPDATE webhook_streams s SET next_attempt_at = now() + s.delay * interval '1 ms' WHERE s.team_id = $1`,
      /\[main query, line 1\]: UPDATE webhook_streams SET next_attempt_at: now\(\) \[stable\] in an expression that/,
    ],
    [
      'to_jsonb of a row',
      `WITH result AS (SELECT 1 AS a)
       UPDATE idempotency_keys k SET answer = to_jsonb(r) FROM result r WHERE k.team_id = $1`,
      /SET answer: to_jsonb\(\) \[stable\] in an expression that reads a column/,
    ],
    [
      'now() inside a CASE, in a CTE',
      `WITH u AS (UPDATE webhook_deliveries d SET time_finished = CASE WHEN $2 THEN NULL ELSE now() END
                   WHERE d.team_id = $1 RETURNING 1)
       SELECT * FROM u`,
      /\[CTE u, line 1\]: UPDATE webhook_deliveries SET time_finished: now\(\) \[stable\] inside CASE$/,
    ],
  ])('fails UPDATE SET with %s', async (_, sql, pattern) => {
    await expectViolations(sql, pattern);
  });

  it('fails a CASE or COALESCE with now() among inserted values, VALUES or SELECT', async () => {
    await expectViolations(
      `INSERT INTO webhooks (team_id, created_at) VALUES ($1, CASE WHEN $2 THEN now() END);
       INSERT INTO webhooks (team_id, created_at) SELECT $1, COALESCE($2, clock_timestamp())`,
      /INSERT INTO webhooks value of created_at: now\(\) \[stable\] inside CASE/,
      /INSERT INTO webhooks value of created_at: clock_timestamp\(\) \[volatile\] inside COALESCE/,
    );
  });

  it('passes now() among inserted values outside CASE and COALESCE', async () => {
    expect(await check('INSERT INTO webhooks (team_id, created_at) SELECT $1, now()')).toEqual([]);
  });
});
