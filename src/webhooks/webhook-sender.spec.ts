import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { send } from './webhook-sender';

const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

describe('send', () => {
  let server: Server;
  let port: number;
  const received: Array<{ headers: Record<string, unknown>; body: string }> = [];
  let answer = 204;

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.writeHead(answer, answer === 307 ? { location: `http://127.0.0.1:${port}/elsewhere` } : {}).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  beforeEach(() => {
    received.length = 0;
    answer = 204;
  });

  const delivery = (host: string) => ({
    url: `http://${host}:${port}/hook?x=1`,
    signer: new Webhook(SECRET),
    eventId: '42',
    body: '{"type":"page.updated"}',
  });

  it('POSTs the body signed, and returns the status', async () => {
    expect(await send(delivery('127.0.0.1'), true)).toEqual({ status: 204 });
    expect(received).toHaveLength(1);
    const { headers, body } = received[0];
    expect(body).toBe('{"type":"page.updated"}');
    expect(headers['webhook-id']).toBe('42');
    expect(() => new Webhook(SECRET).verify(body, headers as Record<string, string>)).not.toThrow();
  });

  it('does not follow a redirect: the 3xx is what the attempt got', async () => {
    answer = 307;
    expect(await send(delivery('127.0.0.1'), true)).toEqual({ status: 307 });
    expect(received).toHaveLength(1);
  });

  it('refuses a loopback address without connecting, as a literal or as a name it resolves', async () => {
    for (const host of ['127.0.0.1', 'localhost']) {
      const result = await send(delivery(host), false);
      expect(result.status).toBeNull();
      expect(result.error).toMatch(/a loopback address/);
    }
    expect(received).toHaveLength(0);
  });

  it('says why a receiver could not be reached', async () => {
    const result = await send({ ...delivery('127.0.0.1'), url: 'http://127.0.0.1:1/' }, true);
    expect(result).toEqual({ status: null, error: expect.stringMatching(/ECONNREFUSED/) });
  });
});
