import { Module } from '@nestjs/common';
import { SqlModule } from '../database/sql';
import { CardsController } from './cards.controller';
import { CardsService } from './cards.service';

@Module({
  imports: [SqlModule],
  controllers: [CardsController],
  providers: [CardsService],
})
export class CardsModule {}
