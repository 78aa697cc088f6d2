import { AppConfig, loadConfig } from '../../src/config/app-config';

/** The database every e2e test uses: TEST_DATABASE_URL, set by global setup when the caller did not. */
export function testDatabaseUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set; run the tests through jest (global setup sets it)');
  return url;
}

/**
 * Configuration for a test app: quiet logs, migrations already applied by global setup, no rate limit, and no
 * webhook delivery (the webhook specs turn it on), so that apps of other specs never attempt their deliveries, and no
 * metrics (test/observability turns them on in a server process of its own).
 */
export function testConfig(overrides: Record<string, string> = {}): AppConfig {
  return loadConfig(
    {},
    {
      DATABASE_URL: testDatabaseUrl(),
      RUN_MIGRATIONS: 'false',
      LOG_LEVEL: 'silent',
      RATE_LIMIT_PER_MINUTE: '0',
      WEBHOOK_DELIVERY: 'false',
      METRICS_PORT: '0',
      ...overrides,
    },
  );
}
