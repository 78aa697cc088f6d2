import { Module } from '@nestjs/common';
import { SqlModule } from '../database/sql';
import { Announcer } from './announcer';
import { DeliveriesQueued } from './deliveries-queued';
import { WriteSequence } from './write-sequence';

/**
 * The machinery every write runs on (write-sequence.ts, write-statement.ts): the features use it, and it
 * imports no feature. One Announcer and one DeliveriesQueued per process, shared by the modules that
 * write and the one that subscribes and delivers.
 */
@Module({
  imports: [SqlModule],
  providers: [Announcer, WriteSequence, DeliveriesQueued],
  exports: [Announcer, WriteSequence, DeliveriesQueued],
})
export class WritePathModule {}
