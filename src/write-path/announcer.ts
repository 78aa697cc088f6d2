import { Injectable } from '@nestjs/common';
import { SqlSession } from '../database/statement';
import { currentTraceParent } from '../observability/trace-context';
import { KeyParams } from '../safe-writes/idempotency-queries';
import { WriteParams, WriteRow, WriteStatement } from './write-statement';

/** How long a workspace found to have webhooks gets the announcing form at once. */
const KNOWN_FOR_MS = 60_000;
/** More workspaces than this and the list starts again (it only saves a round trip). */
const KNOWN_MAX = 10_000;

/**
 * Runs write statements in the form their request needs (write-statement.ts): a keyed request's in the
 * keyed form; any other in the quiet form unless this process saw the workspace have webhooks lately,
 * and in the announcing form after a quiet one refused. Either way a change is stored with its event,
 * decided by the statement on its snapshot, as the outbox's own probe is.
 */
@Injectable()
export class Announcer {
  private readonly subscribed = new Map<string, number>();

  async write<Params extends WriteParams, Row>(
    session: SqlSession,
    write: WriteStatement<Params, Row>,
    params: Params & KeyParams,
  ): Promise<Array<Row & WriteRow>> {
    if (params.idempotencyKey === null && write.quiet && !this.knownSubscribed(params.teamId)) {
      const rows = await session.query(write.quiet, params);
      if (!rows.some((row) => row.subscribed)) return rows;
      this.noteSubscribed(params.teamId);
    }
    const announcing = { ...params, traceParent: currentTraceParent() };
    return session.query(params.idempotencyKey === null ? write.announcing : write.keyed, announcing);
  }

  /** The workspace has a webhook (one was just created, or a quiet write refused). */
  noteSubscribed(teamId: string): void {
    if (this.subscribed.size >= KNOWN_MAX) this.subscribed.clear();
    this.subscribed.set(teamId, Date.now() + KNOWN_FOR_MS);
  }

  private knownSubscribed(teamId: string): boolean {
    const until = this.subscribed.get(teamId);
    if (until === undefined) return false;
    if (until > Date.now()) return true;
    this.subscribed.delete(teamId);
    return false;
  }
}
