import { Module } from '@nestjs/common';
import { SqlModule } from '../database/sql';
import { AnnouncerModule } from '../webhooks/announcer';
import { NotesController } from './notes.controller';
import { NotesService } from './notes.service';

@Module({
  imports: [SqlModule, AnnouncerModule],
  controllers: [NotesController],
  providers: [NotesService],
})
export class NotesModule {}
