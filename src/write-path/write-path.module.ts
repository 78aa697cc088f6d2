import { Module } from '@nestjs/common';
import { SqlModule } from '../database/sql';
import { Announcer } from './announcer';
import { WriteSequence } from './write-sequence';

/**
 * The machinery every write runs on (write-sequence.ts, write-statement.ts): the features use it, and it
 * imports no feature. One Announcer per process, shared by the modules that write and the one that
 * subscribes.
 */
@Module({ imports: [SqlModule], providers: [Announcer, WriteSequence], exports: [Announcer, WriteSequence] })
export class WritePathModule {}
