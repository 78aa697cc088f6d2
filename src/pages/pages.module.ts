import { Module } from '@nestjs/common';
import { SqlModule } from '../database/sql';
import { WritePathModule } from '../write-path/write-path.module';
import { CollaborationTokens } from './collaboration-tokens';
import { PageCopy } from './page-copy';
import { PageCreation } from './page-creation';
import { PageDeletion } from './page-deletion';
import { PageLifecycleController } from './page-lifecycle.controller';
import { PagesController } from './pages.controller';
import { PagesService } from './pages.service';
import { PageList } from './page-list';

@Module({
  imports: [SqlModule, WritePathModule],
  controllers: [PagesController, PageLifecycleController],
  providers: [PagesService, CollaborationTokens, PageCreation, PageCopy, PageDeletion, PageList],
})
export class PagesModule {}
