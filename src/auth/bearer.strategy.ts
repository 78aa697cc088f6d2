import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-http-bearer';
import { CommonErrors } from '../errors/common-errors';
import { Caller } from './caller';
import { TokensService } from './tokens.service';

@Injectable()
export class BearerStrategy extends PassportStrategy(Strategy, 'bearer') {
  constructor(private readonly tokens: TokensService) {
    super();
  }

  async validate(secret: string): Promise<Caller> {
    const caller = await this.tokens.authenticate(secret);
    if (!caller) throw CommonErrors.invalidToken();
    return caller;
  }
}
