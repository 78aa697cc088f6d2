import { CanActivate, ExecutionContext, Injectable, RawBodyRequest } from '@nestjs/common';
import type { Request, Response } from 'express';
import { createHash, randomUUID } from 'node:crypto';
import { Caller } from '../auth/caller';
import { AppConfig } from '../config/app-config';
import { Sql } from '../database/sql';
import { Metrics } from '../observability/metrics';
import { CLAIM_KEY, ClaimRow, RELEASE_KEY } from './idempotency-queries';
import { SafeWriteErrors } from './safe-write-errors';
import { KeptAnswer, setKeyOutcome } from './write-conditions';

/** decisions.md: 1 to 255 printable ASCII characters. */
const KEY_SHAPE = /^[\x20-\x7e]{1,255}$/;
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Idempotency keys of the writes under /v1 (decisions.md, "Idempotency keys"). The first request with a
 * key claims it and runs, and its write statement keeps the answer when it succeeds; a failure gives
 * the claim back (AllExceptionsFilter calls giveBackKey). A repeat gets the kept answer rendered again
 * (the handler runs, its write does not), marked `Idempotent-Replayed: true`; another request under the
 * key is 422, one while the first runs 409. The last global guard, so a key is looked at only for a
 * caller allowed in the workspace with a well-formed body; a guard rather than an interceptor, so a
 * request without a key costs nothing (Nest runs interceptors through rxjs and an AsyncResource).
 */
@Injectable()
export class IdempotencyGuard implements CanActivate {
  constructor(
    private readonly db: Sql,
    private readonly config: AppConfig,
    private readonly metrics: Metrics,
  ) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const request = context.switchToHttp().getRequest<RawBodyRequest<Request>>();
    const key = request.headers['idempotency-key'];
    if (key === undefined || !WRITE_METHODS.has(request.method) || !request.path.startsWith('/v1/')) return true;
    if (typeof key !== 'string' || !KEY_SHAPE.test(key)) throw SafeWriteErrors.invalidIdempotencyKey();
    return this.claim(request, context.switchToHttp().getResponse<Response>(), key);
  }

  private async claim(request: RawBodyRequest<Request>, response: Response, key: string): Promise<boolean> {
    const caller = request.user as Caller;
    const claim = randomUUID();
    const owner = { teamId: caller.teamId, userId: caller.userId, key, claim };
    const leaseMs = this.config.requestTimeoutMs;
    const requestPrint = fingerprint(request);
    const [row] = await this.db.query(CLAIM_KEY, { ...owner, fingerprint: requestPrint, leaseMs });
    if (row.claim === claim) {
      // Should the release itself fail, the claim lapses at its deadline instead.
      const giveBack = () => this.db.query(RELEASE_KEY, owner).then(noop, noop);
      setKeyOutcome(request, { claimed: { idempotencyKey: key, keyClaim: claim }, giveBack });
    } else {
      setKeyOutcome(request, { kept: kept(row, row.fingerprint.equals(requestPrint), this.metrics) });
      response.setHeader('Idempotent-Replayed', 'true');
    }
    return true;
  }
}

function noop(): void {}

/** The answer a repeat gets: 422 for another request under the key, 409 while the first still runs. */
function kept(row: ClaimRow, sameRequest: boolean, metrics: Metrics): KeptAnswer {
  if (!sameRequest) {
    metrics.idempotencyAnswer('reused');
    throw SafeWriteErrors.idempotencyKeyReused();
  }
  if (row.status === null || row.answer === null) {
    metrics.idempotencyAnswer('in_use');
    throw SafeWriteErrors.idempotencyKeyInUse();
  }
  metrics.idempotencyAnswer('replayed');
  return { status: row.status, row: row.answer };
}

/** SHA-256 of the method, the path (with its query) and the body's bytes. */
function fingerprint(request: RawBodyRequest<Request>): Buffer {
  return createHash('sha256')
    .update(`${request.method} ${request.originalUrl}\n`)
    .update(request.rawBody ?? Buffer.alloc(0))
    .digest();
}
