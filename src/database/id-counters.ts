/** The kinds of resource whose numerical ids the service assigns, and the table each lives in. */
const TABLES = { page: 'pages', tag: 'tags' } as const;

export type CountedKind = keyof typeof TABLES;

/**
 * A CTE body that takes the workspace's next `count` ids of a kind (a SQL expression, 1 by default) as
 * `first_id` to `last_id` (bigint): past every id the service handed out or retired (id_counters,
 * migration 0011) and every id the table holds, imported ones too. Creations of one kind in one
 * workspace take turns on the counter's row until they commit. The count is inserted as `last_count`, for
 * ON CONFLICT to read from EXCLUDED: Citus refuses a subquery there (migration 0019).
 */
export const allocateIds = (kind: CountedKind, count = '1'): string => `
  INSERT INTO id_counters AS k (team_id, kind, last_id, last_count)
  SELECT :teamId, '${kind}', COALESCE((SELECT max(x.id) FROM ${TABLES[kind]} x WHERE x.team_id = :teamId), 0) + n.count,
         n.count
    FROM (SELECT ${count} AS count) n
  ON CONFLICT (team_id, kind) DO UPDATE
     SET last_id = greatest(k.last_id, EXCLUDED.last_id - EXCLUDED.last_count) + EXCLUDED.last_count,
         last_count = EXCLUDED.last_count
  RETURNING k.last_id - k.last_count + 1 AS first_id, k.last_id AS last_id`;

/**
 * A CTE body that records the ids a delete removed (`deleted`, a CTE with an `id` column) as used, so
 * they are never handed out again. It writes only when one of them lies past the counter (an imported
 * id above every id handed out), so most deletes never wait for a creation's turn on the counter.
 */
export const retireIds = (kind: CountedKind, deleted: string): string => `
  INSERT INTO id_counters AS k (team_id, kind, last_id)
  SELECT :teamId, '${kind}', m.id
    FROM (SELECT max(d.id) AS id FROM ${deleted} d) m
   WHERE m.id > COALESCE((SELECT c.last_id FROM id_counters c WHERE c.team_id = :teamId AND c.kind = '${kind}'), -1)
  ON CONFLICT (team_id, kind) DO UPDATE SET last_id = greatest(k.last_id, EXCLUDED.last_id)`;
