import { DataSource } from 'typeorm';
import { ROLE_NAMES, seedWorkspace, Workspace } from '../support/fixtures';
import { expectError } from '../support/expect-error';
import { createTestApp, TestApp } from '../support/test-app';
import { EVENT_TYPES } from '../../src/webhooks/webhook-events';
import { WEBHOOK_TEST_ENV } from './receiver';

/** A public address as a literal: creating a webhook on it needs no DNS. */
const PUBLIC_URL = 'https://93.184.215.14/hooks/content';

describe('Webhook subscriptions (e2e)', () => {
  let t: TestApp;
  let ws: Workspace;

  // WEBHOOK_ALLOW_PRIVATE_URLS unset: the SSRF checks are on.
  beforeAll(async () => {
    t = await createTestApp({ WEBHOOK_SECRET_KEY: WEBHOOK_TEST_ENV.WEBHOOK_SECRET_KEY });
    ws = await seedWorkspace(t.app);
  });
  afterAll(() => t.close());

  const create = (body: object, auth = ws.auth.owner) =>
    t.http.post(`/v1/${ws.teamId}/webhooks`).set('Authorization', auth).send(body);

  it('creates a webhook: 201 with the secret, once; GET and the list show it without', async () => {
    const res = await create({ url: PUBLIC_URL, events: ['page.updated', 'page.updated', 'card.tags_added'] });
    expect(res.status).toBe(201);
    const { webhook } = res.body;
    expect(webhook).toEqual({
      id: expect.stringMatching(/^[0-9]+$/),
      url: PUBLIC_URL,
      events: ['page.updated', 'card.tags_added'],
      description: '',
      time_created: expect.any(Number),
      user: { type: 'user', user_id: ws.users.owner },
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    expect(Buffer.from(webhook.secret.slice(6), 'base64')).toHaveLength(32);
    expect(Math.abs(webhook.time_created - Date.now())).toBeLessThan(60_000);
    const { secret, ...shown } = webhook;
    const got = await t.http.get(`/v1/${ws.teamId}/webhooks/${webhook.id}`).set('Authorization', ws.auth.admin);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ webhook: shown });
    const list = await t.http.get(`/v1/${ws.teamId}/webhooks`).set('Authorization', ws.auth.owner).expect(200);
    expect(list.body.webhooks).toContainEqual(shown);
    expect(JSON.stringify(list.body)).not.toContain(secret);
    const [stored] = await t.app
      .get(DataSource)
      .query<Array<{ secret: string }>>(`SELECT secret FROM webhooks WHERE team_id = $1 AND id = $2`, [
        ws.teamId,
        webhook.id,
      ]);
    expect(stored.secret).toMatch(/^v1:/); // sealed with WEBHOOK_SECRET_KEY (AES-256-GCM)
    expect(stored.secret).not.toContain(secret.slice(6));
  });

  it('an Idempotency-Key creates one webhook: a repeat replays the answer (secret too), kept sealed', async () => {
    const body = { url: PUBLIC_URL, events: ['page.updated'], description: 'Retried creation' };
    const keyed = () => create(body).set('Idempotency-Key', 'create-once');
    const first = await keyed().expect(201);
    const repeat = await keyed().expect(201);
    expect(repeat.headers['idempotent-replayed']).toBe('true');
    expect(repeat.text).toBe(first.text);
    const list = await t.http.get(`/v1/${ws.teamId}/webhooks`).set('Authorization', ws.auth.owner).expect(200);
    const named = (list.body.webhooks as Array<{ description: string }>).filter(
      (w) => w.description === body.description,
    );
    expect(named).toHaveLength(1);
    const kept = await t.app
      .get(DataSource)
      .query<Array<{ answer: string }>>(`SELECT answer::text FROM idempotency_keys WHERE key = 'create-once'`);
    expect(kept[0].answer).not.toContain((first.body as { webhook: { secret: string } }).webhook.secret.slice(6));
    expectError(
      await create({ ...body, description: 'Another' }).set('Idempotency-Key', 'create-once'),
      'IDEMPOTENCY_KEY_REUSED',
    );
  });

  it('"*" subscribes to everything; a description is kept', async () => {
    const res = await create({ url: PUBLIC_URL, events: ['page.archived', '*'], description: 'Sync job' }).expect(201);
    expect(res.body.webhook).toMatchObject({ events: ['*'], description: 'Sync job' });
  });

  it('deletes a webhook: 204, then 404', async () => {
    const { id } = (await create({ url: PUBLIC_URL, events: ['*'] }).expect(201)).body.webhook;
    const url = `/v1/${ws.teamId}/webhooks/${id}`;
    const res = await t.http.delete(url).set('Authorization', ws.auth.owner);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expectError(await t.http.get(url).set('Authorization', ws.auth.owner), 'WEBHOOK_NOT_FOUND', new RegExp(id));
    expectError(await t.http.delete(url).set('Authorization', ws.auth.owner), 'WEBHOOK_NOT_FOUND');
    expectError(await t.http.get(`${url}/deliveries`).set('Authorization', ws.auth.owner), 'WEBHOOK_NOT_FOUND');
  });

  it('a delete retried with its Idempotency-Key gets the kept 204, not 409 or 404', async () => {
    const { id } = (await create({ url: PUBLIC_URL, events: ['*'] }).expect(201)).body.webhook;
    const remove = () =>
      t.http
        .delete(`/v1/${ws.teamId}/webhooks/${id}`)
        .set('Authorization', ws.auth.owner)
        .set('Idempotency-Key', `d-${id}`);
    await remove().expect(204);
    const again = await remove().expect(204);
    expect(again.headers['idempotent-replayed']).toBe('true');
  });

  it('the deliveries log of a webhook without attempts is empty', async () => {
    const { id } = (await create({ url: PUBLIC_URL, events: ['*'] }).expect(201)).body.webhook;
    const res = await t.http.get(`/v1/${ws.teamId}/webhooks/${id}/deliveries`).set('Authorization', ws.auth.admin);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deliveries: [] });
  });

  describe('permissions: owner and admin only, checked before anything else', () => {
    let hookId: string;
    beforeAll(async () => {
      hookId = (await create({ url: PUBLIC_URL, events: ['*'] }).expect(201)).body.webhook.id;
    });

    const routes = () => [
      { method: 'post' as const, path: `/v1/${ws.teamId}/webhooks`, body: { url: PUBLIC_URL, events: ['*'] }, ok: 201 },
      { method: 'post' as const, path: `/v1/${ws.teamId}/webhooks`, body: { url: 7 }, ok: 400 },
      { method: 'get' as const, path: `/v1/${ws.teamId}/webhooks`, ok: 200 },
      { method: 'get' as const, path: `/v1/${ws.teamId}/webhooks/${hookId}`, ok: 200 },
      { method: 'get' as const, path: `/v1/${ws.teamId}/webhooks/99999999999`, ok: 404 },
      { method: 'get' as const, path: `/v1/${ws.teamId}/webhooks/${hookId}/deliveries`, ok: 200 },
      { method: 'delete' as const, path: `/v1/${ws.teamId}/webhooks/99999999999`, ok: 404 },
    ];

    it.each(ROLE_NAMES)('%s', async (role) => {
      for (const route of routes()) {
        const req = t.http[route.method](route.path).set('Authorization', ws.auth[role]);
        const res = await (route.body ? req.send(route.body) : req);
        if (role === 'owner' || role === 'admin') expect([route.path, res.status]).toEqual([route.path, route.ok]);
        else expectError(res, 'ACCESS_DENIED', /^You do not have access to this resource$/);
      }
    });

    it('OAuth and agent tokens act for a member: 403', async () => {
      expectError(await t.http.get(`/v1/${ws.teamId}/webhooks`).set('Authorization', ws.auth.oauth), 'ACCESS_DENIED');
      expectError(await create({ url: PUBLIC_URL, events: ['*'] }, ws.auth.agent), 'ACCESS_DENIED');
    });

    it("another workspace's owner: 403; no token: 401", async () => {
      const other = await seedWorkspace(t.app);
      expectError(
        await t.http.get(`/v1/${ws.teamId}/webhooks`).set('Authorization', other.auth.owner),
        'ACCESS_DENIED',
      );
      const res = await t.http.get(`/v1/${ws.teamId}/webhooks/${hookId}`);
      expectError(res, 'UNAUTHENTICATED');
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
      // and the other workspace does not see this one's webhook
      expectError(
        await t.http.get(`/v1/${other.teamId}/webhooks/${hookId}`).set('Authorization', other.auth.owner),
        'WEBHOOK_NOT_FOUND',
      );
    });
  });

  describe('validation', () => {
    it.each([
      [{ events: ['*'] }, /url/],
      [{ url: PUBLIC_URL }, /events/],
      [{ url: PUBLIC_URL, events: [] }, /events/],
      [{ url: PUBLIC_URL, events: '*' }, /events/],
      [{ url: PUBLIC_URL, events: [7] }, /events/],
      [{ url: PUBLIC_URL, events: Array(EVENT_TYPES.length + 2).fill('*') }, /events/],
      [{ url: 'ftp://example.com/x', events: ['*'] }, /url/],
      [{ url: '/relative', events: ['*'] }, /url/],
      [{ url: `https://example.com/${'a'.repeat(2048)}`, events: ['*'] }, /url/],
      [{ url: null, events: ['*'] }, /url/],
      [{ url: PUBLIC_URL, events: ['*'], description: 'd'.repeat(1001) }, /description/],
      [{ url: PUBLIC_URL, events: ['*'], description: null }, /description/],
    ])('case %#: 400 VALIDATION_FAILED', async (body, field) => {
      expectError(await create(body), 'VALIDATION_FAILED', field);
    });

    it('an unknown field: 400 UNKNOWN_FIELD', async () => {
      expectError(await create({ url: PUBLIC_URL, events: ['*'], secret: 'mine' }), 'UNKNOWN_FIELD', /secret/);
    });

    it('an unknown event type: 400 WEBHOOK_EVENT_UNKNOWN naming it', async () => {
      expectError(
        await create({ url: PUBLIC_URL, events: ['page.updated', 'page.purged'] }),
        'WEBHOOK_EVENT_UNKNOWN',
        /page\.purged/,
      );
    });

    it('a webhook id of the wrong shape: 400; too large for the column: 404', async () => {
      const get = (id: string) => t.http.get(`/v1/${ws.teamId}/webhooks/${id}`).set('Authorization', ws.auth.owner);
      expectError(await get('abc'), 'INVALID_PATH_PARAMETER', /webhook_id/);
      expectError(await get('99999999999999999999'.slice(0, 19)), 'WEBHOOK_NOT_FOUND');
    });
  });

  describe('SSRF: URLs that resolve to non-public addresses are refused (WEBHOOK_ALLOW_PRIVATE_URLS off)', () => {
    it.each([
      ['http://127.0.0.1:8080/hook', 'loopback'],
      ['http://127.3.4.5/hook', 'loopback'],
      ['https://10.1.2.3/hook', 'private'],
      ['https://192.168.0.10/hook', 'private'],
      ['https://172.16.5.4/hook', 'private'],
      ['http://169.254.169.254/latest/meta-data', 'linkLocal'],
      ['http://[::1]:3000/hook', 'loopback'],
      ['http://[::ffff:127.0.0.1]/hook', 'loopback'],
      ['http://[fe80::1]/hook', 'linkLocal'],
      ['http://[fd00::1]/hook', 'uniqueLocal'],
      ['http://0.0.0.0/hook', 'unspecified'],
      ['http://localhost:3000/hook', 'loopback'],
    ])('%s: 400 WEBHOOK_URL_REFUSED', async (url, range) => {
      expectError(await create({ url, events: ['*'] }), 'WEBHOOK_URL_REFUSED', new RegExp(`a ${range} address`));
    });
  });

  it('at most 25 webhooks per workspace', async () => {
    const full = await seedWorkspace(t.app);
    const make = () =>
      t.http
        .post(`/v1/${full.teamId}/webhooks`)
        .set('Authorization', full.auth.owner)
        .send({ url: PUBLIC_URL, events: ['*'] });
    for (let n = 0; n < 25; n++) expect((await make()).status).toBe(201);
    expectError(await make(), 'WEBHOOK_LIMIT_REACHED');
  });

  it('30 concurrent creations in an empty workspace: 25 created, 5 refused, 25 stored', async () => {
    const empty = await seedWorkspace(t.app);
    const answers = await Promise.all(
      Array.from({ length: 30 }, () =>
        t.http
          .post(`/v1/${empty.teamId}/webhooks`)
          .set('Authorization', empty.auth.owner)
          .send({ url: PUBLIC_URL, events: ['*'] }),
      ),
    );
    expect(answers.filter((res) => res.status === 201)).toHaveLength(25);
    for (const refused of answers.filter((res) => res.status !== 201)) expectError(refused, 'WEBHOOK_LIMIT_REACHED');
    const [{ count }] = await t.app
      .get(DataSource)
      .query<Array<{ count: number }>>(`SELECT count(*)::int AS count FROM webhooks WHERE team_id = $1`, [
        empty.teamId,
      ]);
    expect(count).toBe(25);
  });
});

describe('Webhook secrets without WEBHOOK_SECRET_KEY (e2e)', () => {
  it('are stored unsealed, and the answer still shows the secret once', async () => {
    const t = await createTestApp();
    try {
      const ws = await seedWorkspace(t.app);
      const res = await t.http
        .post(`/v1/${ws.teamId}/webhooks`)
        .set('Authorization', ws.auth.owner)
        .send({ url: PUBLIC_URL, events: ['*'] })
        .expect(201);
      const [stored] = await t.app
        .get(DataSource)
        .query<Array<{ secret: string }>>(`SELECT secret FROM webhooks WHERE id = $1`, [res.body.webhook.id]);
      expect(stored.secret).toBe(`plain:${res.body.webhook.secret}`);
    } finally {
      await t.close();
    }
  });
});
