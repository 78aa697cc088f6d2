import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call } from './http-client';
import { useServerProcesses } from './server-process';
import { testDatabaseUrl } from '../support/test-config';
import { LEVEL, useBoots } from './boot-process';

describe('Boot configuration (e2e)', () => {
  const boot = useBoots();
  const { start } = useServerProcesses();
  let dir: string;
  beforeAll(async () => (dir = await mkdtemp(join(tmpdir(), 'wca-secrets-'))));
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const secretFile = async (name: string, content: string) => {
    await writeFile(join(dir, name), content, { mode: 0o600 });
    return join(dir, name);
  };

  it.each([
    ['a bad value', { PORT: 'eighty' }, ['PORT'], /^Invalid configuration: PORT="eighty": /],
    [
      'a secret set both ways',
      { DATABASE_URL: 'postgres://a@db/app', DATABASE_URL_FILE: '/run/secrets/database_url' },
      ['DATABASE_URL_FILE'],
      /DATABASE_URL_FILE="\/run\/secrets\/database_url": DATABASE_URL is set too; set only one of them$/,
    ],
    [
      'a secret file that cannot be read',
      { WEBHOOK_SECRET_KEY_FILE: '/nonexistent/webhook_key' },
      ['WEBHOOK_SECRET_KEY_FILE'],
      /WEBHOOK_SECRET_KEY_FILE="\/nonexistent\/webhook_key": cannot read it \(ENOENT/,
    ],
  ])('refuses %s in one JSON line naming the variable, exit 1 within 5 s', async (_, env, variables, msg) => {
    const service = await boot(env);
    expect(await service.exitsInTime()).toBe(1);
    expect(service.entries()).toEqual([
      expect.objectContaining({ level: LEVEL.fatal, context: 'Config', variables, msg: expect.stringMatching(msg) }),
    ]);
    expect(service.notJson()).toEqual([]);
    expect(service.stderr()).toBe('');
  });

  it('reads DATABASE_URL, WEBHOOK_SECRET_KEY and COLLABORATION_SECRET from the files their _FILE names', async () => {
    const server = await start({
      DATABASE_URL: '',
      DATABASE_URL_FILE: await secretFile('database_url', `${testDatabaseUrl()}\n`),
      WEBHOOK_SECRET_KEY_FILE: await secretFile('webhook_key', `${'k'.repeat(40)}\n`),
      COLLABORATION_SECRET_FILE: await secretFile('collaboration', `${'c'.repeat(40)}\n`),
    });
    expect((await call(server.baseUrl, { method: 'GET', path: '/health/ready', timeoutMs: 20_000 })).status).toBe(200);
  });
});
