import { Module } from '@nestjs/common';
import { SqlModule } from '../database/sql';
import { Announcer } from './announcer';
import { DeliveriesQueued } from './deliveries-queued';
import { WriteSequence } from './write-sequence';
import { Writes } from './write-transaction';

/**
 * The machinery every write runs on (write-transaction.ts; write-sequence.ts for the writes still in one
 * statement): the features use it, and it imports no feature. One DeliveriesQueued per process, shared by
 * the modules that write and the one that subscribes and delivers.
 */
@Module({
  imports: [SqlModule],
  providers: [Announcer, WriteSequence, Writes, DeliveriesQueued],
  exports: [Announcer, WriteSequence, Writes, DeliveriesQueued],
})
export class WritePathModule {}
