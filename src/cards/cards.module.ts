import { Module } from '@nestjs/common';
import { SqlModule } from '../database/sql';
import { AnnouncerModule } from '../webhooks/announcer';
import { CardsController } from './cards.controller';
import { CardsService } from './cards.service';

@Module({
  imports: [SqlModule, AnnouncerModule],
  controllers: [CardsController],
  providers: [CardsService],
})
export class CardsModule {}
