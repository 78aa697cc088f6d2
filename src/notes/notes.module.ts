import { Module } from '@nestjs/common';
import { SqlModule } from '../database/sql';
import { WritePathModule } from '../write-path/write-path.module';
import { NotesController } from './notes.controller';
import { NotesService } from './notes.service';

@Module({
  imports: [SqlModule, WritePathModule],
  controllers: [NotesController],
  providers: [NotesService],
})
export class NotesModule {}
