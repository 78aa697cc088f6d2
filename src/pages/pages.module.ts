import { Module } from '@nestjs/common';
import { CollaborationTokens } from './collaboration-tokens';
import { PagesController } from './pages.controller';
import { PagesService } from './pages.service';

@Module({
  controllers: [PagesController],
  providers: [PagesService, CollaborationTokens],
  exports: [CollaborationTokens],
})
export class PagesModule {}
