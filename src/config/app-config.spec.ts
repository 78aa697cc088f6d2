import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from './app-config';

describe('loadConfig', () => {
  it('has a working default for everything', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      databaseUrl: undefined,
      dataDir: './.data',
      runMigrations: true,
      logLevel: 'info',
    });
    expect(config.publicPagesBaseUrl).toBe('http://localhost:3000/p');
  });

  it('reads and converts the environment', () => {
    const config = loadConfig({
      PORT: '8080',
      DATABASE_URL: 'postgres://x@db/y',
      RUN_MIGRATIONS: 'false',
      PUBLIC_PAGES_BASE_URL: 'https://pages.example.com/',
    });
    expect(config).toMatchObject({
      port: 8080,
      databaseUrl: 'postgres://x@db/y',
      runMigrations: false,
      publicPagesBaseUrl: 'https://pages.example.com',
    });
  });

  it('limits the public pages to 600 requests a minute per address unless PUBLIC_RATE_LIMIT_PER_MINUTE says so', () => {
    expect(loadConfig({}).publicRateLimitPerMinute).toBe(600);
    expect(loadConfig({ PUBLIC_RATE_LIMIT_PER_MINUTE: '0' }).publicRateLimitPerMinute).toBe(0);
    expect(() => loadConfig({ PUBLIC_RATE_LIMIT_PER_MINUTE: '-1' })).toThrow(/PUBLIC_RATE_LIMIT_PER_MINUTE="-1"/);
    expect(() => loadConfig({ PUBLIC_RATE_LIMIT_PER_MINUTE: 'lots' })).toThrow(/PUBLIC_RATE_LIMIT_PER_MINUTE="lots"/);
  });

  it('fails naming every bad variable', () => {
    expect(() => loadConfig({ PORT: 'eighty', LOG_LEVEL: 'loud' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty', LOG_LEVEL: 'loud' })).toThrow(
      /PORT="eighty"[\s\S]*LOG_LEVEL="loud"|LOG_LEVEL="loud"[\s\S]*PORT=/,
    );
  });

  it.each([
    ['true', true],
    ['TRUE', true],
    ['1', true],
    ['False', false],
    ['0', false],
    ['', true],
  ])('reads RUN_MIGRATIONS=%j as %s', (value, expected) => {
    expect(loadConfig({ RUN_MIGRATIONS: value }).runMigrations).toBe(expected);
  });

  it.each(['yes', 'no', 'banana', 'on', '2'])('rejects RUN_MIGRATIONS=%j naming it', (value) => {
    expect(() => loadConfig({ RUN_MIGRATIONS: value })).toThrow(ConfigError);
    expect(() => loadConfig({ RUN_MIGRATIONS: value })).toThrow(
      `RUN_MIGRATIONS=${JSON.stringify(value)}: RUN_MIGRATIONS must be true, false, 1 or 0`,
    );
  });

  it.each(['postgres://u:p@db:5432/app', 'postgresql://u@db/app?sslmode=require'])('accepts DATABASE_URL=%j', (url) => {
    expect(loadConfig({ DATABASE_URL: url }).databaseUrl).toBe(url);
  });

  it('treats an empty DATABASE_URL as unset (the embedded database)', () => {
    expect(loadConfig({ DATABASE_URL: '' }).databaseUrl).toBeUndefined();
  });

  it.each(['not a url', 'mysql://u@db/app', 'http://db/app', 'postgres://', 'db:5432/app'])(
    'rejects DATABASE_URL=%j naming it',
    (url) => {
      expect(() => loadConfig({ DATABASE_URL: url })).toThrow(ConfigError);
      expect(() => loadConfig({ DATABASE_URL: url })).toThrow(
        `DATABASE_URL=${JSON.stringify(url)}: DATABASE_URL must be a URL starting with postgres:// or postgresql://`,
      );
    },
  );

  it('leaves EMBEDDED_PG_PORT unset by default, so the data directory remembers its own port', () => {
    expect(loadConfig({}).embeddedPgPort).toBeUndefined();
    expect(loadConfig({ EMBEDDED_PG_PORT: '' }).embeddedPgPort).toBeUndefined();
    expect(loadConfig({ EMBEDDED_PG_PORT: '55432' }).embeddedPgPort).toBe(55432);
  });

  it.each(['0', '65536', 'abc', '5432.5'])('rejects EMBEDDED_PG_PORT=%j naming it, once', (value) => {
    const message =
      `Invalid configuration:\n  EMBEDDED_PG_PORT=${JSON.stringify(value)}: ` +
      'EMBEDDED_PG_PORT must be a port from 1 to 65535';
    expect(() => loadConfig({ EMBEDDED_PG_PORT: value })).toThrow(new ConfigError(message));
  });

  it('does not repeat a password or secret it rejects', () => {
    expect(() =>
      loadConfig({ DATABASE_URL: 'mysql://app:s3cret@db/app', COLLABORATION_SECRET: 'short-s3cret' }),
    ).toThrow(/DATABASE_URL="mysql:\/\/app:\*\*\*@db\/app"[\s\S]*COLLABORATION_SECRET=\(hidden\)/);
    expect(() =>
      loadConfig({ DATABASE_URL: 'mysql://app:s3cret@db/app', COLLABORATION_SECRET: 'short-s3cret' }),
    ).not.toThrow(/s3cret/);
  });

  it('replaces a taken default METRICS_PORT, but not one the environment set', () => {
    expect(loadConfig({}).metrics).toEqual({ port: 9464, host: '127.0.0.1', portRequired: false });
    expect(loadConfig({ METRICS_PORT: '' }).metrics).toMatchObject({ port: 9464, portRequired: false });
    expect(loadConfig({ METRICS_PORT: '9464' }).metrics).toMatchObject({ port: 9464, portRequired: true });
    expect(loadConfig({ METRICS_PORT: '0' }).metrics).toBeUndefined();
  });

  describe('*_FILE (Docker secrets)', () => {
    let dir: string;
    const file = (name: string, content: string) => {
      writeFileSync(join(dir, name), content);
      return join(dir, name);
    };
    beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'wca-config-'))));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('reads each secret from the file its _FILE names, without the trailing newline', () => {
      const config = loadConfig({
        DATABASE_URL_FILE: file('url', 'postgres://app:s3cret@db/app\n'),
        WEBHOOK_SECRET_KEY_FILE: file('key', `${'k'.repeat(40)}\r\n`),
        COLLABORATION_SECRET_FILE: file('collab', 'c'.repeat(32)),
      });
      expect(config).toMatchObject({
        databaseUrl: 'postgres://app:s3cret@db/app',
        databaseUrlFile: join(dir, 'url'),
        webhooks: { secretKey: 'k'.repeat(40) },
        collaborationSecret: 'c'.repeat(32),
      });
    });

    it('refuses a variable set both ways, naming it', () => {
      const both = { DATABASE_URL: 'postgres://a@db/app', DATABASE_URL_FILE: file('both', 'postgres://b@db/app') };
      expect(() => loadConfig(both)).toThrow(
        new ConfigError(
          `Invalid configuration:\n  DATABASE_URL_FILE=${JSON.stringify(join(dir, 'both'))}: ` +
            'DATABASE_URL is set too; set only one of them',
        ),
      );
    });

    it('refuses a file it cannot read or that is empty, naming the variable and the file', () => {
      const missing = join(dir, 'missing');
      expect(() => loadConfig({ WEBHOOK_SECRET_KEY_FILE: missing })).toThrow(
        `WEBHOOK_SECRET_KEY_FILE=${JSON.stringify(missing)}: cannot read it (ENOENT: no such file or directory`,
      );
      expect(() => loadConfig({ COLLABORATION_SECRET_FILE: file('empty', '\n') })).toThrow(
        `COLLABORATION_SECRET_FILE=${JSON.stringify(join(dir, 'empty'))}: the file is empty`,
      );
      try {
        loadConfig({ WEBHOOK_SECRET_KEY_FILE: missing, PORT: 'eighty' });
      } catch (error) {
        expect((error as ConfigError).variables.sort()).toEqual(['PORT', 'WEBHOOK_SECRET_KEY_FILE']);
      }
      expect.assertions(3);
    });

    it('validates what it read as the variable itself, saying where it came from and hiding secrets', () => {
      const url = file('mysql', 'mysql://app:s3cret@db/app\n');
      expect(() => loadConfig({ DATABASE_URL_FILE: url })).toThrow(
        `DATABASE_URL (from DATABASE_URL_FILE=${JSON.stringify(url)})="mysql://app:***@db/app": DATABASE_URL must be`,
      );
      expect(() => loadConfig({ COLLABORATION_SECRET_FILE: file('short', 'short-s3cret') })).toThrow(
        /COLLABORATION_SECRET \(from COLLABORATION_SECRET_FILE=".*short"\)=\(hidden\): /,
      );
    });
  });
});
