import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { BearerStrategy } from './bearer.strategy';
import { TokenCache } from './token-cache';
import { TokensService } from './tokens.service';

@Module({
  imports: [PassportModule],
  providers: [TokensService, TokenCache, BearerStrategy],
  exports: [TokensService, TokenCache, BearerStrategy],
})
export class AuthModule {}
