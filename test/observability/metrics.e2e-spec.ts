import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { freePort } from '../../support/free-port';
import { call } from '../faults/http-client';
import { useServerProcesses } from '../faults/server-process';
import { useScene } from '../support/scene';

const TIMEOUT_MS = 10_000;
const PAGE_ROUTE = '/v1/:team_id/pages/:page_id';

/** The families README "Watching it" lists, each of which a scrape must show. */
const FAMILIES = [
  'http_server_request_duration_seconds',
  'db_client_operation_duration_seconds',
  'db_client_operation_errors_total',
  'db_client_connections',
  'db_client_connections_idle',
  'db_client_connections_pending_requests',
  'webhook_deliveries_pending',
  'webhook_oldest_pending_age_seconds',
  'webhook_delivery_attempts_total',
  'webhook_delivery_lag_seconds',
  'idempotency_answers_total',
  'http_server_rate_limited_total',
  'token_cache_lookups_total',
  'nodejs_eventloop_lag_seconds',
  'nodejs_heap_size_used_bytes',
  'nodejs_gc_duration_seconds',
];

/** The compiled server with its metrics port, on the test database; the in-process app seeds. */
describe('Prometheus metrics', () => {
  const s = useScene();
  const { start } = useServerProcesses();

  it('counts requests by route and status on a port of their own, with every family, and no id', async () => {
    const metricsPort = await freePort();
    const server = await start({ METRICS_PORT: String(metricsPort) });
    const auth = s.ws.auth.member;
    const created = await call(server.baseUrl, {
      method: 'POST',
      path: `/v1/${s.ws.teamId}/pages`,
      auth,
      body: { project_id: s.ws.projectId, title: 'Watched' },
      headers: { 'Idempotency-Key': 'metrics-1' },
      timeoutMs: TIMEOUT_MS,
    });
    expect(created.status).toBe(201);
    const pageId = (created.body as { page: { id: string } }).page.id;
    const replayed = await call(server.baseUrl, {
      method: 'POST',
      path: `/v1/${s.ws.teamId}/pages`,
      auth,
      body: { project_id: s.ws.projectId, title: 'Watched' },
      headers: { 'Idempotency-Key': 'metrics-1' },
      timeoutMs: TIMEOUT_MS,
    });
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    for (let i = 0; i < 3; i++) {
      const read = await call(server.baseUrl, {
        method: 'GET',
        path: `/v1/${s.ws.teamId}/pages/${pageId}`,
        auth,
        timeoutMs: TIMEOUT_MS,
      });
      expect(read.status).toBe(200);
    }
    const missing = await call(server.baseUrl, {
      method: 'GET',
      path: `/v1/${s.ws.teamId}/pages/987654321`,
      auth,
      timeoutMs: TIMEOUT_MS,
    });
    expect(missing.status).toBe(404);

    const scrape = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(scrape.status).toBe(200);
    expect(scrape.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await scrape.text();
    const families = parse(text);
    for (const family of FAMILIES) expect(families.has(family)).toBe(true);

    const count = (status: string, method = 'GET') =>
      families
        .get('http_server_request_duration_seconds')!
        .find(
          (sample) =>
            sample.name === 'http_server_request_duration_seconds_count' &&
            sample.labels.http_route === PAGE_ROUTE &&
            sample.labels.http_request_method === method &&
            sample.labels.http_response_status_code === status,
        )?.value;
    expect(count('200')).toBe(3);
    expect(count('404')).toBe(1);
    const replays = families.get('idempotency_answers_total')!.find((sample) => sample.labels.outcome === 'replayed');
    expect(replays?.value).toBe(1);
    const statements = families
      .get('db_client_operation_duration_seconds')!
      .map((sample) => sample.labels.db_statement);
    expect(statements).toContain('read_page');

    // No id, token or raw path reaches a label.
    expect(text).not.toContain(s.ws.teamId);
    expect(text).not.toContain(`/pages/${pageId}`);
    expect(text).not.toContain('987654321');
    expect(text).not.toContain(auth.replace('Bearer ', ''));

    // The API's port has no /metrics; the metrics port has nothing else.
    const onApi = await call(server.baseUrl, { method: 'GET', path: '/metrics', timeoutMs: TIMEOUT_MS });
    expect(onApi.status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${metricsPort}/v1/${s.ws.teamId}/pages`)).status).toBe(404);
  });

  it('opens no port with METRICS_PORT=0', async () => {
    const server = await start({ METRICS_PORT: '0' });
    const pid = server.child.pid!;
    // The sockets the process listens on, from /proc: exactly the API's.
    const inodes =
      execFileSync('ls', ['-l', `/proc/${pid}/fd`])
        .toString()
        .match(/socket:\[(\d+)\]/g) ?? [];
    const listening = listeningPorts(inodes.map((socket) => socket.slice(8, -1)));
    expect(listening).toEqual([Number(new URL(server.baseUrl).port)]);
  });
});

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/**
 * A strict parser of the Prometheus text format (0.0.4): every line is a HELP, a TYPE or a sample of the
 * family last typed; label values are quoted and escaped; a value is a number. Any other line fails.
 */
function parse(text: string): Map<string, Sample[]> {
  const families = new Map<string, Sample[]>();
  let current: { name: string; type: string } | undefined;
  const suffixes = (type: string) =>
    type === 'histogram' ? ['_bucket', '_sum', '_count'] : type === 'summary' ? ['', '_sum', '_count'] : [''];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const help = /^# HELP ([a-zA-Z_:][a-zA-Z0-9_:]*) .*$/.exec(line);
    if (help) continue;
    const type = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type) {
      current = { name: type[1], type: type[2] };
      if (families.has(current.name)) throw new Error(`Family ${current.name} typed twice`);
      families.set(current.name, []);
      continue;
    }
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (-?[0-9.e+-]+|NaN|\+Inf|-Inf)$/.exec(line);
    if (!sample || !current) throw new Error(`Not a line of the text format: ${line}`);
    const [, name, , labelText, value] = sample;
    if (!suffixes(current.type).some((suffix) => name === current!.name + suffix))
      throw new Error(`Sample ${name} outside its family ${current.name}`);
    const labels: Record<string, string> = {};
    const labelPattern = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"(,|$)/y;
    for (let at = 0; labelText !== undefined && at < labelText.length;) {
      labelPattern.lastIndex = at;
      const label = labelPattern.exec(labelText);
      if (!label) throw new Error(`Bad labels in: ${line}`);
      labels[label[1]] = label[2];
      at = labelPattern.lastIndex;
    }
    families.get(current.name)!.push({ name, labels, value: Number(value) });
  }
  return families;
}

/** The TCP ports in LISTEN state whose socket inode is one of `inodes`. */
function listeningPorts(inodes: string[]): number[] {
  const ports = new Set<number>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6'])
    for (const row of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const fields = row.trim().split(/\s+/);
      if (fields[3] === '0A' && inodes.includes(fields[9])) ports.add(parseInt(fields[1].split(':').pop()!, 16));
    }
  return [...ports].sort();
}
