import { freePort } from '../../support/free-port';
import { LEVEL, metricsUrlIn, useBoots } from '../faults/boot-process';
import { START_STEP_MS, useServerProcesses } from '../faults/server-process';
import { holdPort, releasePort } from '../support/held-port';
import { testDatabaseUrl } from '../support/test-config';

const DEFAULT_PORT = 9464;
/** Twice the server's 10 s REQUEST_TIMEOUT_MS: it answers every request before, however loaded the machine. */
const TIMEOUT_MS = 20_000;

/** The metrics port when another process holds it: METRICS_PORT's stops the boot, the default one is replaced. */
describe('a taken metrics port (e2e)', () => {
  jest.setTimeout(START_STEP_MS + 10_000);
  const boot = useBoots();
  const { start, step } = useServerProcesses();

  it('stops the boot when METRICS_PORT names it, in one JSON line naming the variable, with exit 1', async () => {
    const port = await freePort();
    const holder = await holdPort(port);
    try {
      const service = await boot({ DATABASE_URL: testDatabaseUrl(), METRICS_PORT: String(port) });
      expect((await step('the service exits', START_STEP_MS, () => service.exited)).code).toBe(1);
      expect(service.entries().filter((entry) => entry.level >= LEVEL.error)).toEqual([
        expect.objectContaining({
          level: LEVEL.fatal,
          variable: 'METRICS_PORT',
          port,
          msg: expect.stringMatching(
            new RegExp(`^METRICS_PORT=${port}: port ${port} on 127\\.0\\.0\\.1 is in use by another process; stop`),
          ),
        }),
      ]);
      expect(service.entries().map((entry) => entry.msg)).not.toContainEqual(expect.stringMatching(/listening on/));
      expect(service.notJson()).toEqual([]);
      expect(service.stderr()).toBe('');
    } finally {
      await releasePort(holder);
    }
  });

  it('replaces the default port by a free one when it is taken, says which, and serves the metrics there', async () => {
    // Held by us, or already by another process: taken either way.
    const ours = await holdPort(DEFAULT_PORT).catch(() => undefined);
    try {
      const server = await start({ METRICS_PORT: '', LOG_LEVEL: 'warn' });
      const url = metricsUrlIn(server.output());
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      expect(url).not.toBe(`http://127.0.0.1:${DEFAULT_PORT}/metrics`);
      const scrape = await fetch(url!, { signal: AbortSignal.timeout(TIMEOUT_MS) });
      expect(scrape.status).toBe(200);
      expect(await scrape.text()).toContain('nodejs_eventloop_lag_seconds');
    } finally {
      if (ours) await releasePort(ours);
    }
  });
});
