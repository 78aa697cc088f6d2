import { createServer, Server } from 'node:net';

/** Listens on `port` at 127.0.0.1, so that the port is taken; fails if it is taken already. */
export function holdPort(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

export function releasePort(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}
