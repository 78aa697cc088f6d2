import { Server, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { LogLine } from './logging/process-log';

/**
 * SIGTERM/SIGINT for the whole life of the server, boot included. Each boot step registers how to
 * undo it; a stop undoes them in reverse order (the app: in-flight requests finish, those on
 * keep-alive connections too, then the pool; then the embedded database) and exits, 0 when asked
 * to stop, 1 when boot failed. A signal during a boot step acts once that step has ended, so that
 * nothing it started is left running.
 */
export class ProcessLifecycle {
  /** Where progress is reported: bootstrap.ts switches it to the configured level once the configuration is read. */
  log: (message: string) => void = (message) => this.processLog.info({ context: 'ProcessLifecycle' }, message);
  private readonly undo: Array<() => Promise<unknown>> = [];
  /** The boot step under way (or the last one): whether it succeeded. */
  private current: Promise<boolean> = Promise.resolve(true);
  private stopRequested = false;
  /** The step under way may be abandoned: a stop does not wait for it. */
  private abandonable = false;
  private stopping?: Promise<number>;
  /** Run as soon as a stop is requested, before any undo: see drainKeepAlive. */
  private readonly onStopRequested: Array<() => void> = [];

  /** `processLog` reports a failed boot, whatever the configured level. */
  constructor(private readonly processLog: Logger) {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => void this.onSignal(signal));
  }

  /**
   * Awaits a boot step and remembers `undo` for its result. Never returns once a stop was requested.
   * `abandonOnStop`: a stop does not wait for the step (one that only waits, as for the database, and
   * leaves nothing that exiting does not end); its result, if it comes, is not undone.
   */
  async start<T>(
    step: Promise<T>,
    undo?: (value: T) => Promise<unknown>,
    options: { abandonOnStop?: boolean } = {},
  ): Promise<T> {
    this.abandonable = options.abandonOnStop ?? false;
    const done = step.then((value) => {
      if (undo) this.undo.push(() => undo(value));
      return value;
    });
    this.current = done.then(
      () => true,
      () => false,
    );
    const value = await done;
    if (this.stopRequested) await new Promise<never>(() => undefined); // the signal handler owns the process now
    return value;
  }

  /** Once a stop is requested, ends the server's keep-alive connections after their current request. */
  drainOnStop(server: Server): void {
    this.onStopRequested.push(drainKeepAlive(server, () => this.stopRequested));
  }

  /** Boot failed: report it in one line, undo what was started, exit 1. */
  async fail({ msg, fields }: LogLine): Promise<never> {
    this.processLog.fatal(fields, msg);
    await this.stopAll();
    process.exit(1);
  }

  private async onSignal(signal: string): Promise<void> {
    if (this.stopRequested) return this.log(`${signal}: already stopping`);
    this.stopRequested = true;
    this.onStopRequested.forEach((drain) => drain());
    this.log(`${signal}: finishing in-flight requests, then closing the database`);
    if (!this.abandonable && !(await this.current)) return; // boot failed: fail() reports it and stops
    process.exit(await this.stopAll());
  }

  /** Undoes every started step once, newest first; the exit code is 1 if one of them failed. */
  private stopAll(): Promise<number> {
    this.stopping ??= (async () => {
      let code = 0;
      for (const undo of this.undo.reverse()) {
        await undo().catch((error: unknown) => {
          this.log(`Stopping failed: ${error instanceof Error ? error.message : String(error)}`);
          code = 1;
        });
      }
      return code;
    })();
    return this.stopping;
  }
}

/**
 * Closing the server stops new connections and ends idle ones, but a keep-alive connection in use
 * stays open, and its client may send on it for ever: the stop would never end. So once a stop is
 * requested, every response not yet begun says `Connection: close`, and each connection ends after
 * its current request. Returns what to run when the stop is requested.
 */
function drainKeepAlive(server: Server, stopping: () => boolean): () => void {
  const open = new Set<ServerResponse>();
  const closeAfter = (res: ServerResponse) => {
    if (!res.headersSent) return res.setHeader('Connection', 'close');
    const socket = res.socket; // already being written: end its connection once it is
    res.once('finish', () => socket?.end());
  };
  // First of the request listeners, so that no response can begin before it is counted.
  server.prependListener('request', (_req, res: ServerResponse) => {
    if (stopping()) return closeAfter(res);
    open.add(res);
    res.once('close', () => open.delete(res));
  });
  return () => open.forEach(closeAfter);
}
