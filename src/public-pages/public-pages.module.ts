import { Module } from '@nestjs/common';
import { SqlModule } from '../database/sql';
import { PublicPagesController } from './public-pages.controller';
import { PublicPagesService } from './public-pages.service';

@Module({
  imports: [SqlModule],
  controllers: [PublicPagesController],
  providers: [PublicPagesService],
})
export class PublicPagesModule {}
