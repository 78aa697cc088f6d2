import { Module } from '@nestjs/common';
import { SqlModule } from '../database/sql';
import { AnnouncerModule } from '../webhooks/announcer';
import { CollaborationTokens } from './collaboration-tokens';
import { PagesController } from './pages.controller';
import { PagesService } from './pages.service';

@Module({
  imports: [SqlModule, AnnouncerModule],
  controllers: [PagesController],
  providers: [PagesService, CollaborationTokens],
})
export class PagesModule {}
