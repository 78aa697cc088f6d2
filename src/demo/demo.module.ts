import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { ImportModule } from '../import/import.module';
import { DemoService } from './demo.service';

/** A demo workspace to try the API on, and a token for it (`npm run cli -- demo`). */
@Module({
  imports: [ImportModule, AuthModule],
  providers: [DemoService],
  exports: [DemoService],
})
export class DemoModule {}
