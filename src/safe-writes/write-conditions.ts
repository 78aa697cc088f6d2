import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { ifMatchTags, versionOf } from './entity-tags';
import { KeyParams } from './idempotency-queries';
import { SafeWriteErrors } from './safe-write-errors';

/** A successful answer kept under an idempotency key: its status and the row it was rendered from. */
export interface KeptAnswer {
  status: number;
  row: Record<string, unknown>;
}

/** What IdempotencyGuard found for the request's key, for the write it lets through. */
export type KeyOutcome = { claimed: KeyParams; giveBack: () => Promise<void> } | { kept: KeptAnswer };

const KEY_OUTCOME = Symbol('keyOutcome');

type WithOutcome = Request & { [KEY_OUTCOME]?: KeyOutcome };

export function setKeyOutcome(request: Request, outcome: KeyOutcome): void {
  (request as WithOutcome)[KEY_OUTCOME] = outcome;
}

/** A failed request keeps nothing: the claim on its key goes (once), so a retry runs afresh. Undefined without one. */
export function giveBackKey(request: Request): Promise<void> | undefined {
  const outcome = (request as WithOutcome)[KEY_OUTCOME];
  if (!outcome || !('claimed' in outcome)) return undefined;
  (request as WithOutcome)[KEY_OUTCOME] = undefined;
  return outcome.giveBack();
}

const NO_KEY: KeyParams = { idempotencyKey: null, keyClaim: null };

/** What a write's request asks beyond its body: If-Match, and the idempotency key it holds or replays. */
export class WriteConditions {
  constructor(
    /** The ETags If-Match accepts; undefined: no condition (no header, or `*`, which any existing resource meets). */
    readonly ifMatch: string[] | undefined,
    private readonly outcome: KeyOutcome | undefined,
  ) {}

  /** The key and this request's claim on it, as the write statements take them; nulls without a key. */
  get key(): KeyParams {
    return this.keyed ? (this.outcome as { claimed: KeyParams }).claimed : NO_KEY;
  }

  /** The request holds an idempotency key: its write runs in the keyed form. */
  get keyed(): boolean {
    return this.outcome !== undefined && 'claimed' in this.outcome;
  }

  /** The row of the answer kept under the request's key: the write already happened; render this instead. */
  kept<Row>(): Row | undefined {
    return this.outcome && 'kept' in this.outcome ? (this.outcome.kept.row as Row) : undefined;
  }

  /** The versions If-Match accepts (its entity tags' opaque parts), as write calls take them; null: no condition. */
  get ifMatchVersions(): string[] | null {
    return this.ifMatch?.map(versionOf) ?? null;
  }

  /** 412 unless If-Match accepts `etag`; called under the write's lock, after its 404 and 403. */
  assertMatches(etag: string): void {
    if (this.ifMatch && !this.ifMatch.includes(etag)) throw SafeWriteErrors.preconditionFailed(etag);
  }

  /** A write statement wrote nothing because the request's claim on its key was taken over (it ran too long). */
  assertKeyHeld(row: { holds_key: boolean }): void {
    if (!row.holds_key) throw SafeWriteErrors.idempotencyKeyInUse();
  }
}

/** The WriteConditions of the request. */
export const Conditions = createParamDecorator((_: unknown, context: ExecutionContext): WriteConditions => {
  const request = context.switchToHttp().getRequest<WithOutcome>();
  const ifMatch = ifMatchTags(request.headers['if-match']);
  return new WriteConditions(ifMatch === '*' ? undefined : ifMatch, request[KEY_OUTCOME]);
});

/** A write asked nothing beyond its body: no If-Match, no key. */
export const UNCONDITIONAL = new WriteConditions(undefined, undefined);
