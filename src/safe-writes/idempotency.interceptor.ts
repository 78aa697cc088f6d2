import { CallHandler, ExecutionContext, Injectable, NestInterceptor, RawBodyRequest } from '@nestjs/common';
import type { Request, Response } from 'express';
import { createHash, randomUUID } from 'node:crypto';
import { catchError, from, Observable, switchMap, throwError } from 'rxjs';
import { Caller } from '../auth/caller';
import { AppConfig } from '../config/app-config';
import { Sql } from '../database/sql';
import { CLAIM_KEY, ClaimRow, RELEASE_KEY } from './idempotency-queries';
import { SafeWriteErrors } from './safe-write-errors';
import { setKeyOutcome } from './write-conditions';

/** decisions.md: 1 to 255 printable ASCII characters. */
const KEY_SHAPE = /^[\x20-\x7e]{1,255}$/;
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/**
 * Idempotency keys of the writes under /v1 (decisions.md, "Idempotency keys"). The first request with a
 * key claims it and runs, and its write statement keeps the answer when it succeeds; a failure gives
 * the claim back. A repeat gets the kept answer rendered again (the handler runs, its write does not),
 * marked `Idempotent-Replayed: true`; another request under the key is 422, one while the first runs 409.
 * It runs after the guards, so a key is looked at only for a caller allowed in the workspace.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly db: Sql,
    private readonly config: AppConfig,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<RawBodyRequest<Request>>();
    const key = request.headers['idempotency-key'];
    if (key === undefined || !WRITE_METHODS.has(request.method) || !request.path.startsWith('/v1/')) {
      return next.handle();
    }
    if (typeof key !== 'string' || !KEY_SHAPE.test(key)) throw SafeWriteErrors.invalidIdempotencyKey();
    const caller = request.user as Caller;
    const claim = randomUUID();
    const owner = [caller.teamId, caller.userId, key] as const;
    return from(this.db.query(CLAIM_KEY, [...owner, fingerprint(request), claim, this.config.requestTimeoutMs])).pipe(
      switchMap(([row]) => {
        if (row.won) {
          setKeyOutcome(request, { claimed: [key, claim] });
          return next.handle().pipe(catchError((error: unknown) => this.release([...owner, claim], error)));
        }
        setKeyOutcome(request, { kept: kept(row) });
        context.switchToHttp().getResponse<Response>().setHeader('Idempotent-Replayed', 'true');
        return next.handle();
      }),
    );
  }

  /** A failed request keeps nothing: its claim goes, so a retry runs afresh. */
  private release(params: [string, string, string, string], error: unknown): Observable<never> {
    // Should the release itself fail, the claim lapses at its deadline instead.
    return from(this.db.query(RELEASE_KEY, params).catch(() => [])).pipe(switchMap(() => throwError(() => error)));
  }
}

/** The answer a repeat gets: 422 for another request under the key, 409 while the first still runs. */
function kept(row: ClaimRow): { status: number; row: Record<string, unknown> } {
  if (!row.same_request) throw SafeWriteErrors.idempotencyKeyReused();
  if (row.status === null || row.answer === null) throw SafeWriteErrors.idempotencyKeyInUse();
  return { status: row.status, row: row.answer };
}

/** SHA-256 of the method, the path (with its query) and the body's bytes. */
function fingerprint(request: RawBodyRequest<Request>): Buffer {
  return createHash('sha256')
    .update(`${request.method} ${request.originalUrl}\n`)
    .update(request.rawBody ?? Buffer.alloc(0))
    .digest();
}
