import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { BearerStrategy } from './bearer.strategy';
import { TokensService } from './tokens.service';

@Module({
  imports: [PassportModule],
  providers: [TokensService, BearerStrategy],
  exports: [TokensService],
})
export class AuthModule {}
