import { Injectable } from '@nestjs/common';

/**
 * Told by the write sequence, once a write that queued deliveries has committed, so that this process's
 * delivery worker (and, through it, the others) hears of it without a round trip.
 */
@Injectable()
export class DeliveriesQueued {
  private readonly listeners = new Set<() => void>();

  subscribe(listener: () => void): void {
    this.listeners.add(listener);
  }

  committed(): void {
    this.listeners.forEach((listener) => listener());
  }
}
