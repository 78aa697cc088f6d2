import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { DatabaseListener } from '../database/database-listener';
import { DeliveriesQueued } from '../write-path/deliveries-queued';
import { DeliveryWorker } from './delivery-worker';

/** The channel of its own on which a process tells the others that it committed queued deliveries. */
export const DELIVERIES_QUEUED_CHANNEL = 'webhook_deliveries_queued';

/**
 * Wakes the delivery workers when a write queues deliveries: this process's at once, without a round
 * trip; and when this process cannot take them at once (it does not deliver, or every slot is
 * delivering), every other process's, by a NOTIFY on DELIVERIES_QUEUED_CHANNEL that this process sends
 * after the write committed, on its listening connection, in a statement of its own. (When it can, the
 * others would only race it for the webhook's lock: one process claims a webhook's batch at a time.)
 * Sent after the commit, it never announces a change that rolled back, and a worker it wakes sees the
 * deliveries; sent outside the write's transaction, it works on a Citus coordinator too, where a NOTIFY
 * in a transaction committed with two-phase commit fails. A burst sends one NOTIFY while another is in
 * flight, and one more after it. A notification lost (the process died after its commit, a connection
 * dropped) only waits for the poll, as before.
 */
@Injectable()
export class DeliveryWakeups implements OnApplicationBootstrap {
  private sending = false;
  private sendAgain = false;

  constructor(
    private readonly queued: DeliveriesQueued,
    private readonly listener: DatabaseListener,
    private readonly worker: DeliveryWorker,
  ) {}

  onApplicationBootstrap(): void {
    this.queued.subscribe(() => {
      if (!this.worker.wake()) void this.tellOthers();
    });
    this.listener.listen(DELIVERIES_QUEUED_CHANNEL, { notified: () => this.worker.wake(), live: () => undefined });
  }

  private async tellOthers(): Promise<void> {
    if (this.sending) {
      this.sendAgain = true;
      return;
    }
    this.sending = true;
    try {
      do {
        this.sendAgain = false;
        await this.listener.notify(DELIVERIES_QUEUED_CHANNEL);
      } while (this.sendAgain);
    } finally {
      this.sending = false;
    }
  }
}
