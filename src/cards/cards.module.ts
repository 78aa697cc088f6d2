import { Module } from '@nestjs/common';
import { SqlModule } from '../database/sql';
import { WritePathModule } from '../write-path/write-path.module';
import { CardsController } from './cards.controller';
import { CardsService } from './cards.service';

@Module({
  imports: [SqlModule, WritePathModule],
  controllers: [CardsController],
  providers: [CardsService],
})
export class CardsModule {}
