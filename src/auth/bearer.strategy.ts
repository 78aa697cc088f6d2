import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import { Strategy } from 'passport-http-bearer';
import { CommonErrors } from '../errors/common-errors';
import { DomainError } from '../errors/domain-error';
import { Caller } from './caller';
import { TokensService } from './tokens.service';

/** The one place that decides a 401: which caller a request's bearer token names, or why none. */
@Injectable()
export class BearerStrategy extends PassportStrategy(Strategy, 'bearer') {
  constructor(private readonly tokens: TokensService) {
    super({ passReqToCallback: true });
  }

  /**
   * passport-http-bearer also takes `access_token` from the query string and the body; we accept the
   * Authorization header only, so tokens stay out of URLs, logs and proxies.
   */
  async validate(request: Request, secret: string): Promise<Caller> {
    if (request.headers.authorization !== `Bearer ${secret}`) throw this.noToken();
    const caller = await this.tokens.authenticate(secret);
    if (!caller) throw CommonErrors.invalidToken();
    return caller;
  }

  /** What passport-http-bearer's `fail` means: it found no token at all. */
  noToken(): DomainError {
    return CommonErrors.missingToken();
  }
}
