import { statement, Statement } from '../database/statement';
import { KeyParams } from '../safe-writes/idempotency-queries';
import { HOLDS_KEY, KEEP_ANSWER, KEY_HELD } from './key-sql';
import { ANNOUNCE, OutboxParams, SUBSCRIBED } from './outbox-sql';

/** What every write statement takes: its workspace and its caller (whose idempotency key it holds). */
export interface WriteParams {
  teamId: string;
  callerId: string;
}

/** What the builder adds to every row of a write statement. */
export interface WriteRow {
  /** False when the request's claim on its key was taken over (it ran too long): nothing was written. */
  holds_key: boolean;
  /** True in the quiet form when the workspace has a webhook: nothing was written (announcer.ts). */
  subscribed?: boolean;
  /** True in the announcing forms when the change queued a delivery (the delivery worker is woken). */
  announced?: boolean;
}

/**
 * A write, as the named parts of one statement; the builder (writeStatement) puts them in order, adds
 * the idempotency key's CTEs and the outbox's, and guards the change with both. Each part is a query
 * that may read the CTEs of the parts before it, by their names.
 */
export interface WriteParts {
  /** CTE `target`: the resource's row, locked (FOR NO KEY UPDATE); none for a creation. */
  target?: string;
  /** CTEs read before the plan, by name, in order. */
  reads?: Record<string, string>;
  /**
   * CTE `planned`: the change as decided from `target` and the reads. The builder keeps its rows only
   * while the request holds its key and, in the quiet form, the workspace has no webhook: a change
   * reads `planned`, so nothing is written otherwise.
   */
  plan: string;
  /** The CTEs that change rows (and any they read), by name, in order. */
  changes: Record<string, string>;
  /** CTE `result`: the answer's row; the builder adds `holds_key` and `subscribed` to it. */
  result: string;
  /**
   * What the key keeps of a successful answer: its status; the answer, a jsonb expression over the
   * result row `r` (to_jsonb(r) when left out); when, over `r`, the answer succeeded (it is kept only
   * while the key is held and something may have been written, which the builder adds).
   */
  keep: { status: number; answer?: string; succeeded?: string };
  /**
   * The events of a change (outbox-sql.ts, ANNOUNCE): a query of rows (type, resource_type, resource_id,
   * actor, resource, previous), one per event (a copy's, one per page), none when nothing changed. A write
   * without one (the creation of a webhook) has no quiet and announcing forms, only keyless and keyed.
   */
  event?: string;
}

/**
 * A CTE body that recurses (`body` reads `name`), as a query with its own WITH RECURSIVE: the write
 * statement itself never recurses, because Citus runs a write's CTEs one by one and cannot when the
 * statement is recursive (docs/citus.md); PostgreSQL plans both the same.
 */
export const recursively = (name: string, body: string): string =>
  `SELECT * FROM (WITH RECURSIVE ${name} AS (${body}) SELECT * FROM ${name}) ${name}`;

/**
 * An INSERT's RETURNING value for the whole inserted row (`alias` of `table`), of the table's type: built from
 * its columns, because on Citus the row is a shard's, whose type does not cast to the table's (docs/citus.md).
 */
export const insertedRow = (alias: string, table: string): string => `ROW(${alias}.*)::${table}`;

/** A write statement's forms: one text each, prepared under its own name. */
export interface WriteStatement<Params extends WriteParams, Row> {
  /**
   * No key and no outbox: writes nothing when the workspace has a webhook (`subscribed`), and the
   * announcing form runs instead. The outbox's subplans, and the key's, cost every execution of a
   * statement that holds them (bench/README.md), and most writes are in workspaces without webhooks,
   * without a key. A write that announces nothing has no quiet form: its keyless form is `announcing`.
   */
  quiet?: Statement<Params & KeyParams, Row & WriteRow>;
  /** No key; with the outbox when the write has an event. */
  announcing: Statement<Params & KeyParams & OutboxParams, Row & WriteRow>;
  /** With the key and the outbox. */
  keyed: Statement<Params & KeyParams & OutboxParams, Row & WriteRow>;
}

/** What a form adds: the key's CTEs (keyed), the outbox's (announces), a subscribed workspace's refusal (quiet). */
interface Form {
  keyed: boolean;
  announces: boolean;
  quiet: boolean;
}

/**
 * Builds a write's statement in its forms, from its parts: `name` (quiet), `name_announcing` and
 * `name_keyed`, which announces too; for a write without an event, `name` (keyless) and `name_keyed`.
 * Every form takes the same parameters: the write's and the key's (KeyParams), and the announcing ones the
 * outbox's (OutboxParams).
 */
export function writeStatement<Params extends WriteParams, Row>(
  name: string,
  parts: WriteParts,
): WriteStatement<Params, Row> {
  const form = (suffix: string, shape: Form) =>
    statement<Params & KeyParams & OutboxParams, Row & WriteRow>(`${name}${suffix}`, writeText(parts, shape));
  if (!parts.event)
    return {
      announcing: form('', { keyed: false, announces: false, quiet: false }),
      keyed: form('_keyed', { keyed: true, announces: false, quiet: false }),
    };
  return {
    quiet: form('', { keyed: false, announces: false, quiet: true }),
    announcing: form('_announcing', { keyed: false, announces: true, quiet: false }),
    keyed: form('_keyed', { keyed: true, announces: true, quiet: false }),
  };
}

/** The statement's text in one form: its CTEs in the order the parts name them, then the result. */
function writeText(parts: WriteParts, form: Form): string {
  const holdsKey = form.keyed ? HOLDS_KEY : 'true';
  const subscribed = form.quiet ? SUBSCRIBED : 'false';
  const mayWrite = [form.keyed ? HOLDS_KEY : null, form.quiet ? `NOT ${SUBSCRIBED}` : null].filter(Boolean);
  const planned = mayWrite.length ? `SELECT * FROM (${parts.plan}) p WHERE ${mayWrite.join(' AND ')}` : parts.plan;
  const { status, answer = 'to_jsonb(r)', succeeded = 'true' } = parts.keep;
  const ctes = [
    parts.target ? `target AS MATERIALIZED (${parts.target})` : null,
    form.keyed ? KEY_HELD(parts.target !== undefined) : null,
    ...Object.entries(parts.reads ?? {}).map(([cte, query]) => `${cte} AS MATERIALIZED (${query})`),
    `planned AS MATERIALIZED (${planned})`,
    ...Object.entries(parts.changes).map(([cte, query]) => `${cte} AS (${query})`),
    `result AS (SELECT r.*, ${holdsKey} AS holds_key, ${subscribed} AS subscribed FROM (${parts.result}) r)`,
    form.keyed ? KEEP_ANSWER(status, answer, `(${succeeded}) AND r.holds_key`) : null,
    form.announces && parts.event ? ANNOUNCE(parts.event) : null,
  ].filter((cte): cte is string => cte !== null);
  const announced = form.announces && parts.event ? ', EXISTS (SELECT 1 FROM fanned_out) AS announced' : '';
  return `WITH ${ctes.join(',\n')}\nSELECT *${announced} FROM result`;
}
