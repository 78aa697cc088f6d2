import { Module } from '@nestjs/common';
import { SqlModule } from '../database/sql';
import { WritePathModule } from '../write-path/write-path.module';
import { CollaborationTokens } from './collaboration-tokens';
import { PagesController } from './pages.controller';
import { PagesService } from './pages.service';
import { PageList } from './page-list';

@Module({
  imports: [SqlModule, WritePathModule],
  controllers: [PagesController],
  providers: [PagesService, CollaborationTokens, PageList],
})
export class PagesModule {}
