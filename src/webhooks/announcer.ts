import { Injectable, Module } from '@nestjs/common';
import { SqlSession, Statement } from '../database/statement';

/** A row of a quiet write: true when the workspace has a webhook, and then it wrote nothing. */
export interface QuietRow {
  subscribed: boolean;
}

/**
 * A write statement in three forms: `announcing` with the outbox (ANNOUNCE), `quiet` without it, which
 * writes nothing when the workspace has a webhook, and `keyed`, `announcing` with the request's
 * idempotency key. The outbox's subplans, and the key's, cost every execution of a statement that
 * holds them (bench/README.md), and most writes are in workspaces without webhooks, without a key.
 */
export interface AnnouncedWrite<Params extends readonly unknown[], Row> {
  quiet: Statement<Params, Row & QuietRow>;
  announcing: Statement<Params, Row>;
  keyed: Statement<Params, Row>;
}

/** How long a workspace found to have webhooks gets the announcing form at once. */
const KNOWN_FOR_MS = 60_000;
/** More workspaces than this and the list starts again (it only saves a round trip). */
const KNOWN_MAX = 10_000;

/**
 * Runs announced writes: a keyed request's in the keyed form; any other in the quiet form unless this
 * process saw the workspace have webhooks lately, and in the announcing form after a quiet one
 * refused. Either way a change is stored with its event, decided by the statement on its snapshot, as
 * the outbox's own probe is.
 */
@Injectable()
export class Announcer {
  private readonly subscribed = new Map<string, number>();

  async write<Params extends readonly unknown[], Row>(
    session: SqlSession,
    write: AnnouncedWrite<Params, Row>,
    teamId: string,
    params: Params,
    keyed: boolean,
  ): Promise<Row[]> {
    if (keyed) return session.query(write.keyed, params);
    if (!this.knownSubscribed(teamId)) {
      const rows = await session.query(write.quiet, params);
      if (!rows.some((row) => row.subscribed)) return rows;
      this.noteSubscribed(teamId);
    }
    return session.query(write.announcing, params);
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

/** The one Announcer of the process, for the modules that write and the one that subscribes. */
@Module({ providers: [Announcer], exports: [Announcer] })
export class AnnouncerModule {}
