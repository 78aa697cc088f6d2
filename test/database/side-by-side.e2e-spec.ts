import { execFile } from 'node:child_process';
import { chmod, mkdtemp, readdir, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { destroyEmbeddedPostgres } from '../../src/database/embedded/embedded-postgres';
import { runCli } from '../cli/run-cli';
import { call } from '../faults/http-client';
import { ServerProcess, startServer } from '../faults/server-process';
import { freePort } from '../../support/free-port';
import { holdPort, releasePort } from '../support/held-port';
import { LEVEL, logEntries, metricsUrlIn } from '../faults/boot-process';

const MAIN = join(__dirname, '..', '..', 'dist', 'src', 'main.js');
const TEAM = 'sidebyside';
const TOKEN = 'wca_side_by_side_token';
/** A client's patience: twice the services' 10 s REQUEST_TIMEOUT_MS, which bounds every answer under any load. */
const CALL_TIMEOUT_MS = 20_000;

/**
 * Two checkouts on one machine: the compiled service and CLI, each with a DATA_DIR of its own and
 * no DATABASE_URL, as `npm start` runs them. One pair of data directories serves every case, in order.
 */
describe('embedded databases side by side', () => {
  let root: string;
  let dataDirA: string;
  let dataDirB: string;
  const clusterOf = (dataDir: string) => join(dataDir, 'postgres');
  const running: ServerProcess[] = [];
  let serverA: ServerProcess;
  let serverB: ServerProcess;
  let portA: number;

  const serve = async (env: Record<string, string>) => {
    const server = await startServer({ LOG_LEVEL: 'warn', ...env });
    running.push(server);
    return server;
  };
  const embeddedCli = (args: string[], env: Record<string, string>) => runCli(args, { DATABASE_URL: '', ...env });

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'wca-side-by-side-'));
    await chmod(root, 0o755); // as root, PostgreSQL runs as the postgres user, which must reach the clusters inside
    dataDirA = join(root, 'a');
    dataDirB = join(root, 'b');
  });

  afterAll(async () => {
    for (const server of running) server.child.kill('SIGTERM');
    await Promise.all(running.map((server) => server.exited));
    for (const dir of ['a', 'b', 'c']) await destroyEmbeddedPostgres(clusterOf(join(root, dir)));
    await rm(root, { recursive: true, force: true });
  }, 60_000);

  it('starts two services from fresh data directories at once, each on free ports, serving and scraped', async () => {
    // METRICS_PORT unset, as `npm start` has it: 9464 for the first, a free port for the other (for both if taken).
    const asStarted = { METRICS_PORT: '', LOG_LEVEL: 'info' };
    [serverA, serverB] = await Promise.all([
      serve({ DATA_DIR: dataDirA, ...asStarted }),
      serve({ DATA_DIR: dataDirB, ...asStarted }),
    ]);
    for (const server of [serverA, serverB])
      expect(
        (await call(server.baseUrl, { method: 'GET', path: '/health/ready', timeoutMs: CALL_TIMEOUT_MS })).status,
      ).toBe(200);
    const metricsUrls = [serverA, serverB].map((server) => metricsUrlIn(server.output()));
    expect(new Set(metricsUrls).size).toBe(2);
    for (const url of metricsUrls) {
      const scrape = await fetch(url!, { signal: AbortSignal.timeout(CALL_TIMEOUT_MS) });
      expect({ url, status: scrape.status }).toEqual({ url, status: 200 });
      expect(await scrape.text()).toContain('http_server_request_duration_seconds_count');
    }

    portA = await rememberedPort(dataDirA);
    const portB = await rememberedPort(dataDirB);
    expect(portA).not.toBe(portB);
    // Each remembered port is served by the cluster of its own data directory.
    expect(await dataDirectoryOn(portA)).toBe(clusterOf(dataDirA));
    expect(await dataDirectoryOn(portB)).toBe(clusterOf(dataDirB));
  }, 120_000);

  it("lets a checkout's CLI write to the database its running service reads, and only that one", async () => {
    const imported = await embeddedCli(['import', await writeDocument(root)], { DATA_DIR: dataDirA });
    expect(imported).toMatchObject({ code: 0, stderr: '' });

    const readPage = (server: ServerProcess) =>
      call(server.baseUrl, {
        method: 'GET',
        path: `/v1/${TEAM}/pages/10`,
        auth: `Bearer ${TOKEN}`,
        timeoutMs: CALL_TIMEOUT_MS,
      });
    expect(await readPage(serverA)).toMatchObject({ status: 200, body: { page: { id: '10', title: 'Home' } } });
    expect((await readPage(serverB)).status).toBe(401);
  }, 60_000);

  it('restarts on the remembered port, past a postmaster.pid left by a crash', async () => {
    await stopServer(serverA);
    await writeFile(
      join(clusterOf(dataDirA), 'postmaster.pid'),
      staleLockFile(await deadPid(), clusterOf(dataDirA), portA),
    );

    const restarted = await serve({ DATA_DIR: dataDirA });
    expect(await dataDirectoryOn(portA)).toBe(clusterOf(dataDirA));
    expect(
      await call(restarted.baseUrl, {
        method: 'GET',
        path: `/v1/${TEAM}/pages/10`,
        auth: `Bearer ${TOKEN}`,
        timeoutMs: CALL_TIMEOUT_MS,
      }),
    ).toMatchObject({ status: 200 });
    await stopServer(restarted);
  }, 60_000);

  it('fails in one sentence naming the port, its file and the fix when the remembered port is taken', async () => {
    const cluster = clusterOf(dataDirA);
    const portFile = join(cluster, 'embedded-pg-port');
    const sentence =
      `The embedded PostgreSQL in ${cluster} did not start: port ${portA} (remembered in ${portFile}) is in use by ` +
      `another process; ` +
      `stop that process, or set EMBEDDED_PG_PORT to a free port (or write one into ${portFile} to keep it).`;
    const holder = await holdPort(portA);
    try {
      const service = await runServiceToExit({ DATA_DIR: dataDirA });
      expect(service.code).toBe(1);
      // The service says it in one JSON line, PostgreSQL's own log in a field of it.
      expect(service.stdout.trimEnd().split('\n')).toHaveLength(1);
      expect(logEntries(service.stdout)).toEqual([
        expect.objectContaining({
          level: LEVEL.fatal,
          msg: sentence,
          postgres_log: {
            source: join(cluster, 'postgres.log'),
            lines: expect.arrayContaining([expect.stringMatching(BIND_FAILED)]),
          },
        }),
      ]);
      expect(service.stderr).toBe('');

      const cli = await embeddedCli(['migration:run'], { DATA_DIR: dataDirA });
      expect(cli.code).toBe(1);
      expectOneSentence(cli.stderr, `error: ${sentence}`);

      // EMBEDDED_PG_PORT still overrides, for this start only.
      const overridden = await embeddedCli(['migration:run'], {
        DATA_DIR: dataDirA,
        EMBEDDED_PG_PORT: String(await freePort()),
      });
      expect(overridden).toMatchObject({ code: 0, stderr: '' });
      expect(await rememberedPort(dataDirA)).toBe(portA);
    } finally {
      await releasePort(holder);
    }
  }, 60_000);

  it('keeps port 54329 for a data directory created before ports were remembered', async () => {
    await stopServer(serverB);
    const cluster = clusterOf(dataDirB);
    await unlink(join(cluster, 'embedded-pg-port'));
    // Held by us, or already by someone else on a shared machine: either way taken, so the refusal names it.
    const ours = await holdPort(54329).catch(() => undefined);
    try {
      const refused = await embeddedCli(['migration:run'], { DATA_DIR: dataDirB });
      expect(refused.code).toBe(1);
      expect(refused.stderr.split('\n')[0]).toBe(
        `error: The embedded PostgreSQL in ${cluster} did not start: port 54329 (the fixed port of data directories ` +
          `created before each remembered its own) is in use by another process; ` +
          `stop that process, ` +
          `or set EMBEDDED_PG_PORT to a free port (or write one into ${join(cluster, 'embedded-pg-port')} to keep it).`,
      );
    } finally {
      if (ours) await releasePort(ours);
    }
    // Free again only if we were the ones holding it: then the old data directory starts on it.
    if (ours) {
      expect(await embeddedCli(['migration:run'], { DATA_DIR: dataDirB })).toMatchObject({ code: 0, stderr: '' });
      expect(await readFile(join(cluster, 'postgres.log'), 'utf8')).toMatch(
        /listening on IPv4 address "127\.0\.0\.1", port 54329\n(?![\s\S]*listening on)/,
      );
    }
    await expect(readFile(join(cluster, 'embedded-pg-port'))).rejects.toThrow(/ENOENT/);
  }, 60_000);

  it('shares one cluster between first starts of one data directory at the same moment', async () => {
    const dataDir = join(root, 'c');
    const results = await Promise.all(
      [1, 2, 3].map(() => embeddedCli(['migration:run'], { DATA_DIR: dataDir, RUN_MIGRATIONS: 'true' })),
    );
    for (const result of results) expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(await readdir(dataDir)).toEqual(['postgres']); // the losers' initdb directories are gone
    expect(await rememberedPort(dataDir)).toBeGreaterThan(0);
  }, 120_000);
});

async function rememberedPort(dataDir: string): Promise<number> {
  return Number((await readFile(join(dataDir, 'postgres', 'embedded-pg-port'), 'utf8')).trim());
}

/** Which cluster answers on `port` (the embedded clusters' superuser is postgres/postgres). */
async function dataDirectoryOn(port: number): Promise<string> {
  const client = new Client({ host: '127.0.0.1', port, user: 'postgres', password: 'postgres', database: 'postgres' });
  await client.connect();
  try {
    return (await client.query<{ data_directory: string }>('SHOW data_directory')).rows[0].data_directory;
  } finally {
    await client.end();
  }
}

/** Runs the compiled service with no DATABASE_URL until it exits by itself (a start that fails). */
function runServiceToExit(env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [MAIN],
      { env: { PATH: process.env.PATH, PORT: '0', ...env }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** What PostgreSQL logs when its port is taken. */
const BIND_FAILED = /could not bind IPv4 address "127\.0\.0\.1": Address already in use/;

/** The command line's failure: the first line is the sentence; what follows is PostgreSQL's own log, and no stack. */
function expectOneSentence(stderr: string, sentence: string): void {
  const [first, heading, ...log] = stderr.trimEnd().split('\n');
  expect(first).toBe(sentence);
  expect(heading).toMatch(/^Last lines of .*postgres\.log:$/);
  expect(log.join('\n')).toMatch(BIND_FAILED);
  expect(stderr).not.toMatch(/^\s+at /m);
}

async function stopServer(server: ServerProcess): Promise<void> {
  server.child.kill('SIGTERM');
  expect((await server.exited).code).toBe(0);
}

/** The pid of a process that has just exited, so no process has it. */
function deadPid(): Promise<number> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, ['-e', '']);
    child.on('exit', () => resolve(child.pid!));
  });
}

/** A postmaster.pid as PostgreSQL writes it, for a server that is no longer there. */
function staleLockFile(pid: number, cluster: string, port: number): string {
  return [
    pid,
    cluster,
    Math.floor(Date.now() / 1000) - 60,
    port,
    '',
    '127.0.0.1',
    '  2147850    163894',
    'ready   ',
    '',
  ].join('\n');
}

async function writeDocument(dir: string): Promise<string> {
  const file = join(dir, 'document.json');
  const owner = `${TEAM}-u1`;
  await writeFile(
    file,
    JSON.stringify({
      workspaces: [{ id: TEAM, name: 'Side by side' }],
      users: [{ id: owner, name: 'Ada', email: 'ada@example.com' }],
      members: [{ team_id: TEAM, user_id: owner, role: 'owner' }],
      tokens: [{ id: 'tok1', team_id: TEAM, user_id: owner, token: TOKEN, expires_at: null, actor: { type: 'user' } }],
      projects: [{ team_id: TEAM, id: '1', title: 'Docs' }],
      pages: [
        {
          team_id: TEAM,
          id: '10',
          project_id: '1',
          parent_page_id: '',
          title: 'Home',
          owner_id: owner,
          archived: false,
        },
      ],
    }),
  );
  return file;
}
