import { Module } from '@nestjs/common';
import { ImportService } from './import.service';

/** Workspaces and their content in, as JSON documents; the CLI, the demo, the tests and the benchmarks use it. */
@Module({
  providers: [ImportService],
  exports: [ImportService],
})
export class ImportModule {}
