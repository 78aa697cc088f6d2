import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { DemoService } from './demo.service';
import { ExportService } from './export.service';
import { ImportService } from './import.service';

/** Workspaces and their content in and out as JSON documents; used by the CLI and by the tests' fixtures. */
@Module({
  imports: [AuthModule],
  providers: [ImportService, ExportService, DemoService],
  exports: [ImportService, ExportService, DemoService],
})
export class ImportModule {}
