import { Injectable } from '@nestjs/common';
import { retryOnConflict, StaleRead } from '../database/retry-on-conflict';
import { Sql } from '../database/sql';
import { SqlSession } from '../database/statement';
import { WriteConditions } from '../safe-writes/write-conditions';
import { currentTraceParent } from '../observability/trace-context';
import { Announcer } from './announcer';
import { DeliveriesQueued } from './deliveries-queued';
import { WriteCall } from './write-call';
import { WriteParams, WriteRow, WriteStatement } from './write-statement';

/**
 * One write as a feature describes it to the sequence: what is its own (its lock-read, its change, its
 * statement, its answer), never the order they run in.
 */
export interface Write<Params extends WriteParams, Row, Locked, Answer> {
  conditions: WriteConditions;
  statement: WriteStatement<Params, Row> | WriteCall<Params, Row>;
  /** The statement's parameters when nothing needs reading under the lock first. */
  params: Params;
  /**
   * Takes the resource's row lock in the write's transaction and reads what the rest needs: refuses a
   * missing resource (404) or a caller who may not write it (403). A write call locks in its function.
   */
  lock?(tx: SqlSession): Promise<Locked>;
  /** The locked resource's ETag, for If-Match; without it, If-Match is not asked of this write. */
  etag?(tx: SqlSession, locked: Locked): string | Promise<string>;
  /** Under the lock, after If-Match: the change's own steps, and the statement's parameters for it. */
  change?(tx: SqlSession, locked: Locked): Promise<Params>;
  /** The write always runs under its lock (a creation's list, a move's projects), not only for If-Match. */
  alwaysLocks?: boolean;
  /** The statement found its row changed while it waited for it and wrote nothing: run it again. */
  stale?(row: Row): boolean;
  /** The answer, from the row written or the one kept under the request's key; refuses when there is none. */
  answer(row: Row | undefined): Answer;
}

/** The first runs of a write that finds its row stale; then it runs under its lock. */
const UNLOCKED_ATTEMPTS = 2;

/**
 * The one order of every write: the answer kept under the request's idempotency key is replayed; else
 * the resource's row is locked and If-Match compared under that lock (when asked, or when the write
 * always locks), then its change runs; then its statement, in the form the request needs (announcer.ts),
 * which writes, keeps the answer under the key and stores the event, all in one; then the answer, whose
 * version the adapter sends as the ETag. A write call (write-call.ts) does all of that but the answer in
 * its function, one statement outside any transaction. A write whose request's claim on its key was taken
 * over wrote nothing, and fails (409).
 */
@Injectable()
export class WriteSequence {
  constructor(
    private readonly db: Sql,
    private readonly announcer: Announcer,
    private readonly queued: DeliveriesQueued,
  ) {}

  async run<Params extends WriteParams, Row, Locked, Answer>(
    write: Write<Params, Row, Locked, Answer>,
  ): Promise<Answer> {
    const kept = write.conditions.kept<Row>();
    if (kept) return write.answer(kept);
    const asksIfMatch = write.conditions.ifMatch !== undefined && write.etag !== undefined;
    // A write call locks and compares If-Match in its function, and runs outside a transaction (docs/citus.md).
    const locksFirst = !isCall(write.statement) && (asksIfMatch || write.alwaysLocks);
    const row = locksFirst ? await this.underLock(write) : await this.alone(write);
    if (row?.announced) this.queued.committed(); // committed by now: the worker may claim it at once
    const answer = write.answer(row);
    if (row) write.conditions.assertKeyHeld(row);
    return answer;
  }

  /**
   * The statement on its own, atomic: a title change, an attach. A deadlock or serialization failure runs it
   * again: on Citus, which runs a statement's CTEs as steps of one transaction, two can wait on each other.
   */
  private async alone<Params extends WriteParams, Row, Locked, Answer>(
    write: Write<Params, Row, Locked, Answer>,
  ): Promise<(Row & WriteRow) | undefined> {
    for (let attempt = 1; attempt <= (write.stale ? UNLOCKED_ATTEMPTS : 1); attempt++) {
      const row = await retryOnConflict(() => this.statement(this.db, write, write.params));
      if (!row || !write.stale?.(row)) return row;
    }
    return this.underLock(write);
  }

  /**
   * One transaction: the lock, If-Match, the change, the statement. A deadlock or a stale read runs it
   * again; a key taken over rolls back what the change did.
   */
  private underLock<Params extends WriteParams, Row, Locked, Answer>(
    write: Write<Params, Row, Locked, Answer>,
  ): Promise<(Row & WriteRow) | undefined> {
    return retryOnConflict(() =>
      this.db.transaction(async (tx) => {
        const locked = (await write.lock?.(tx)) as Locked;
        if (write.conditions.ifMatch && write.etag) write.conditions.assertMatches(await write.etag(tx, locked));
        const params = write.change ? await write.change(tx, locked) : write.params;
        const row = await this.statement(tx, write, params);
        if (row && write.stale?.(row)) throw new StaleRead(); // the lock holds the row: never expected
        if (row) write.conditions.assertKeyHeld(row);
        return row;
      }),
    );
  }

  private async statement<Params extends WriteParams, Row, Locked, Answer>(
    session: SqlSession,
    write: Write<Params, Row, Locked, Answer>,
    params: Params,
  ): Promise<(Row & WriteRow) | undefined> {
    const keyed = { ...params, ...write.conditions.key };
    if (!isCall(write.statement)) return (await this.announcer.write(session, write.statement, keyed))[0];
    const envelope = { ifMatch: write.conditions.ifMatchVersions, traceParent: currentTraceParent() };
    const [{ written }] = await session.query(write.statement, { ...keyed, ...envelope });
    return written ?? undefined;
  }
}

const isCall = <Params extends WriteParams, Row>(
  write: WriteStatement<Params, Row> | WriteCall<Params, Row>,
): write is WriteCall<Params, Row> => 'text' in write;
