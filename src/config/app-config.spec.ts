import { ConfigError, loadConfig } from './app-config';

describe('loadConfig', () => {
  it('has a working default for everything', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 3000, databaseUrl: undefined, dataDir: './.data', runMigrations: true, logLevel: 'info' });
    expect(config.publicPagesBaseUrl).toBe('http://localhost:3000/p');
  });

  it('reads and converts the environment', () => {
    const config = loadConfig({ PORT: '8080', DATABASE_URL: 'postgres://x@db/y', RUN_MIGRATIONS: 'false', PUBLIC_PAGES_BASE_URL: 'https://pages.example.com/' });
    expect(config).toMatchObject({ port: 8080, databaseUrl: 'postgres://x@db/y', runMigrations: false, publicPagesBaseUrl: 'https://pages.example.com' });
  });

  it('fails naming every bad variable', () => {
    expect(() => loadConfig({ PORT: 'eighty', LOG_LEVEL: 'loud' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty', LOG_LEVEL: 'loud' })).toThrow(/PORT="eighty"[\s\S]*LOG_LEVEL="loud"|LOG_LEVEL="loud"[\s\S]*PORT=/);
  });
});
