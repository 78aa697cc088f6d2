import { statement, Statement } from '../database/statement';
import { KeyParams } from '../safe-writes/idempotency-queries';
import { OutboxParams } from './outbox-sql';
import { WriteParams, WriteRow } from './write-statement';

/**
 * What every write function takes after the write's own arguments: the versions If-Match accepts (null: no
 * condition), the request's key and its claim, its trace.
 */
const ENVELOPE = ':ifMatch::text[], :idempotencyKey::text, :keyClaim::uuid, :traceParent::text';

/** The envelope's parameters (ENVELOPE). */
export interface CallParams extends KeyParams, OutboxParams {
  ifMatch: string[] | null;
}

/** What every write function answers besides the write's own fields. */
export interface CallRow extends WriteRow {
  /** If-Match accepted the resource's version (or asked nothing); when not, nothing was written (412). */
  matched: boolean;
}

/**
 * A write as one call of its database function (the migrations define them: lock, check, change, record),
 * which compares If-Match under its lock, keeps the answer under the request's key and stores the event.
 * `SELECT fn(...)` with nothing else is the form Citus delegates whole to the node of the workspace named
 * by the first argument.
 */
export type WriteCall<Params extends WriteParams, Row> = Statement<
  Params & CallParams,
  { written: (Row & CallRow) | null }
>;

/** Declares a write call: `fn(args, envelope)`, with `args` naming the write's parameters. */
export const writeCall = <Params extends WriteParams, Row>(
  name: string,
  fn: string,
  args: string,
): WriteCall<Params, Row> => statement(name, `SELECT ${fn}(${args}, ${ENVELOPE}) AS written`);
