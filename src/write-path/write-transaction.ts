import { Injectable } from '@nestjs/common';
import { Caller } from '../auth/caller';
import { retryOnConflict } from '../database/retry-on-conflict';
import { Sql } from '../database/sql';
import { SqlSession, Statement, StatementParams } from '../database/statement';
import { currentTraceParent } from '../observability/trace-context';
import { KEEP_ANSWER } from '../safe-writes/idempotency-queries';
import { SafeWriteErrors } from '../safe-writes/safe-write-errors';
import { WriteConditions } from '../safe-writes/write-conditions';
import { ChangeEvent } from './change-event';
import { DeliveriesQueued } from './deliveries-queued';
import { QUEUE_DELIVERIES, RECORD_EVENTS, STREAM_DELIVERIES, SUBSCRIBED_TYPES } from './outbox-queries';

/** A write's transaction as its change sees it: its statements, and the events it records. */
export class WriteTransaction implements SqlSession {
  readonly events: ChangeEvent[] = [];

  constructor(private readonly session: SqlSession) {}

  query<Params extends StatementParams, Row>(statement: Statement<Params, Row>, params: Params): Promise<Row[]> {
    return this.session.query(statement, params);
  }

  /** Records the change's events, stored with it when the transaction commits. */
  record(...events: ChangeEvent[]): void {
    this.events.push(...events);
  }
}

/** One write: its change, the answer made from the row it returns, and that answer's status. */
export interface Write<Row extends object, Answer> {
  /** Kept with the answer under the request's idempotency key. */
  status: number;
  /** In the write's transaction: lock, check (404, 403, If-Match), change, record its events; the answer's row. */
  change(tx: WriteTransaction): Promise<Row>;
  /** The answer, from the row the change returned or the one kept under the request's key. */
  answer(row: Row): Answer;
}

/**
 * Runs every write as one short transaction of plain statements: the change's own, then its events (stored
 * always, delivered to the webhooks that subscribe to them) and, under an idempotency key, the answer kept
 * with it. A repeat of a keyed request renders the kept answer and changes nothing. On the request pool's
 * pipelined connections BEGIN goes out with the first statements and COMMIT behind the last, so a write
 * waits for the database only where it reads what it needs next.
 */
@Injectable()
export class Writes {
  constructor(
    private readonly db: Sql,
    private readonly queued: DeliveriesQueued,
  ) {}

  async run<Row extends object, Answer>(
    caller: Caller,
    conditions: WriteConditions,
    write: Write<Row, Answer>,
  ): Promise<Answer> {
    const kept = conditions.kept<Row>();
    if (kept) return write.answer(kept);
    const { row, queued } = await retryOnConflict(() =>
      this.db.transaction((session) => this.inTransaction(caller, conditions, write, session)),
    );
    if (queued) this.queued.committed(); // committed by now: the worker may claim them at once
    return write.answer(row);
  }

  private async inTransaction<Row extends object, Answer>(
    caller: Caller,
    conditions: WriteConditions,
    write: Write<Row, Answer>,
    session: SqlSession,
  ): Promise<{ row: Row; queued: boolean }> {
    const teamId = caller.teamId;
    const subscribed = session.query(SUBSCRIBED_TYPES, { teamId });
    const tx = new WriteTransaction(session);
    const row = await write.change(tx);
    const [{ types }] = await subscribed;
    const queued = tx.events.some((event) => types.includes('*') || types.includes(event.type));
    if (tx.events.length > 0) {
      const events = JSON.stringify(tx.events);
      const source = { teamId, actor: JSON.stringify(caller.actor), traceParent: currentTraceParent() };
      const recorded = session.query(RECORD_EVENTS, { ...source, events });
      if (queued) {
        const ids = await recorded;
        const fanned = {
          teamId,
          eventIds: ids.map((event) => event.id),
          types: ids.map((event) => event.type),
          resourceKeys: ids.map((event) => event.resource_key),
        };
        void session.query(QUEUE_DELIVERIES, fanned);
        void session.query(STREAM_DELIVERIES, fanned);
      }
    }
    if (conditions.keyed) {
      const answer = { teamId, callerId: caller.userId, ...conditions.key, status: write.status };
      const [kept] = await session.query(KEEP_ANSWER, { ...answer, answer: JSON.stringify(row) });
      if (!kept) throw SafeWriteErrors.idempotencyKeyInUse();
    }
    return { row, queued };
  }
}
