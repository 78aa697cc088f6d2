import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { SqlModule } from '../database/sql';
import { BearerStrategy } from './bearer.strategy';
import { TokenCache } from './token-cache';
import { TokensService } from './tokens.service';

@Module({
  imports: [PassportModule, SqlModule],
  providers: [TokensService, TokenCache, BearerStrategy],
  exports: [TokensService, TokenCache, BearerStrategy],
})
export class AuthModule {}
