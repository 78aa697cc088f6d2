import { Module } from '@nestjs/common';
import { ExportService } from './export.service';

/** A workspace out as a JSON document in the import's format (`npm run cli -- export`). */
@Module({
  providers: [ExportService],
  exports: [ExportService],
})
export class ExportModule {}
