import { Module } from '@nestjs/common';
import { SqlModule } from '../database/sql';
import { NotesController } from './notes.controller';
import { NotesService } from './notes.service';

@Module({
  imports: [SqlModule],
  controllers: [NotesController],
  providers: [NotesService],
})
export class NotesModule {}
