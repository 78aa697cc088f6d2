import { Module } from '@nestjs/common';
import { SqlModule } from '../database/sql';
import { WritePathModule } from '../write-path/write-path.module';
import { TagsController } from './tags.controller';
import { TagsService } from './tags.service';

@Module({
  imports: [SqlModule, WritePathModule],
  controllers: [TagsController],
  providers: [TagsService],
})
export class TagsModule {}
