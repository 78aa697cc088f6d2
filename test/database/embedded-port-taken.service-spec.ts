import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as embeddedPort from '../../src/database/embedded/embedded-port';
import { destroyEmbeddedPostgres, startEmbeddedPostgres } from '../../src/database/embedded/embedded-postgres';

/**
 * A first start picks a free port for its new cluster, then starts PostgreSQL on it: another process can
 * take the port in between (CI saw it when many servers start at once). Here that process is a listener on
 * the very port the first pick returns; the start must pick again and remember the port it got.
 */
describe('the first start of an embedded cluster, when its picked port is taken before it listens', () => {
  let root: string;
  let hog: Server;
  let hogPort: number;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'wca-port-taken-'));
    await chmod(root, 0o755); // as root, PostgreSQL runs as the postgres user, which must reach the cluster
    hog = createServer();
    await new Promise<void>((resolve) => hog.listen(0, '127.0.0.1', resolve));
    hogPort = (hog.address() as { port: number }).port;
  });

  afterAll(async () => {
    jest.restoreAllMocks();
    hog.close();
    await destroyEmbeddedPostgres(join(root, 'postgres'));
    await rm(root, { recursive: true, force: true });
  });

  it('starts on another free port and remembers that one', async () => {
    // The first pick only; later picks are the real one's.
    jest.spyOn(embeddedPort, 'freePort').mockImplementationOnce(() => Promise.resolve(hogPort));

    const dataDir = join(root, 'postgres');
    const postgres = await startEmbeddedPostgres({ dataDir, database: 'port_taken' });
    try {
      const port = Number(new URL(postgres.url).port);
      expect(port).not.toBe(hogPort);
      expect(Number((await readFile(join(dataDir, embeddedPort.PORT_FILE), 'utf8')).trim())).toBe(port);
    } finally {
      await postgres.stop({ force: true });
    }
  }, 120_000);
});
