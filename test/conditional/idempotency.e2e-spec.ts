import type { Response } from 'supertest';
import { IdempotencyKeySweeper } from '../../src/safe-writes/idempotency-key-sweeper';
import { seedTemplate } from '../notes/note-template-fixtures';
import { expectError } from '../support/expect-error';
import { seedWorkspace } from '../support/fixtures';
import { Scene, useScene } from '../support/scene';
import { createTestApp } from '../support/test-app';
import { waitFor } from '../support/wait-for';
import {
  countExecutions,
  etagOf,
  freshKey,
  keyRows,
  keyStatuses,
  lockRow,
  missingPath,
  seedSubject,
  snapshot,
  stored,
  Subject,
  WRITE_NAMES,
} from './safe-writes';

/** What a client compares between two answers: status, body (its very bytes) and ETag. */
const answer = (res: Response) => ({ status: res.status, body: res.text ?? '', etag: res.headers.etag });
const replayed = (res: Response) => res.headers['idempotent-replayed'] === 'true';

/** The names of every form of the subject's write statement, and the count of each when none ran. */
const allForms = (subject: Subject) => [subject.statement, ...subject.keyless];
const none = (subject: Subject) => Object.fromEntries(allForms(subject).map((name) => [name, 0]));

/** Expects `res` to be a replay of `first`: the same status, body and ETag, with the header saying so. */
function expectReplayOf(res: Response, first: Response): void {
  expect({ ...answer(res), replayed: res.headers['idempotent-replayed'] }).toEqual({
    ...answer(first),
    replayed: 'true',
  });
}

/** decisions.md, "Idempotency keys": any PATCH, PUT or POST under /v1 may carry one. */
describe('Idempotency-Key on the writes', () => {
  const s = useScene();

  describe.each(WRITE_NAMES)('%s', (name) => {
    let subject: Subject;
    beforeEach(async () => (subject = await seedSubject(s, name)));

    it.each([
      ['empty', ''],
      ['256 characters long', 'k'.repeat(256)],
      ['not ASCII (Latin-1 é)', 'caf\u00e9'],
      ['holding a tab', 'a\tb'],
      ['holding a byte past DEL', 'key\u00a0x'],
    ])('refuses a key that is %s with 400, and nothing changes', async (_, key) => {
      const before = await snapshot(subject);
      const { result: res, counts } = await countExecutions(allForms(subject), () => subject.write({ key }));
      expectError(res, 'IDEMPOTENCY_KEY_INVALID', /Idempotency-Key/i);
      expect(counts).toEqual(none(subject));
      expect(await snapshot(subject)).toEqual(before);
    });

    it.each([
      ['one character', 'k'],
      ['255 characters', 'k'.repeat(255)],
      ['any printable ASCII', ' !"#$%&\'()*+,-./09:;<=>?@AZ[\\]^_`az{|}~'.trim()],
    ])('accepts a key of %s', async (_, key) => {
      const unique = key.length === 255 ? `${freshKey()}${key}`.slice(0, 255) : `${key}${freshKey()}`;
      const first = await subject.write({ key: unique }).expect(subject.status);
      expect(replayed(first)).toBe(false);
      expectReplayOf(await subject.write({ key: unique }), first);
    });

    it('replays the first answer (status, body, ETag) without running again, even after another change', async () => {
      const key = freshKey();
      const first = await subject.write({ key }).expect(subject.status);
      expect(replayed(first)).toBe(false);
      expect(etagOf(first)).toBe((await snapshot(subject)).etag);
      await subject.alter();
      const changed = await snapshot(subject);
      expect(changed.etag).not.toBe(first.headers.etag);
      for (let n = 0; n < 2; n++) {
        const { result: repeat, counts } = await countExecutions(allForms(subject), () => subject.write({ key }));
        expectReplayOf(repeat, first);
        expect(counts).toEqual(none(subject));
        // Not reverted: the change made in between is still there.
        expect(await snapshot(subject)).toEqual(changed);
      }
      if (name === 'page' || name === 'archive') {
        const again = await subject.write({ key });
        expect(again.body.page.collaboration.token).toBe(first.body.page.collaboration.token);
      }
    });

    it('runs a write without a key in a form without the key (the quiet one here: no webhooks)', async () => {
      const { result, counts } = await countExecutions(allForms(subject), () => subject.write());
      expect(result.status).toBe(subject.status);
      expect(counts).toEqual({ ...none(subject), [subject.keyless[0]]: 1 });
    });

    it('keeps the answer of a keyed write that changes nothing, too', async () => {
      await subject.write().expect(subject.status);
      const key = freshKey();
      const first = await subject.write({ key }).expect(subject.status);
      await subject.alter();
      expectReplayOf(await subject.write({ key }), first);
    });

    it('answers the same key with another body, or on another path, with 422, and nothing changes', async () => {
      const key = freshKey();
      await subject.write({ key }).expect(subject.status);
      const before = await snapshot(subject);
      const elsewhere = await seedSubject(s, name);
      const elsewhereBefore = await snapshot(elsewhere);
      const { result, counts } = await countExecutions(allForms(subject), async () => [
        await subject.write({ key, body: subject.otherBody }),
        await subject.write({ key, path: elsewhere.path }),
      ]);
      for (const res of result) expectError(res, 'IDEMPOTENCY_KEY_REUSED');
      expect(counts).toEqual(none(subject));
      expect(await snapshot(subject)).toEqual(before);
      expect(await snapshot(elsewhere)).toEqual(elsewhereBefore);
    });

    it('keeps nothing for a failed request: after a 412 the same key and body, right version, run', async () => {
      const key = freshKey();
      const stale = await subject.write({ key, ifMatch: '"stale"' });
      expectError(stale, 'PRECONDITION_FAILED');
      const { etag } = await snapshot(subject);
      const retry = await subject.write({ key, ifMatch: etag }).expect(subject.status);
      expect(replayed(retry)).toBe(false);
      const after = await snapshot(subject);
      expect(after.etag).not.toBe(etag);
      expect(etagOf(retry)).toBe(after.etag);
    });

    it('keeps nothing for a 404: a repeat is answered afresh, not replayed', async () => {
      const key = freshKey();
      const path = missingPath(subject);
      for (let n = 0; n < 2; n++) {
        const res = await subject.write({ key, path });
        expect({ status: res.status, replayed: replayed(res) }).toEqual({ status: 404, replayed: false });
      }
    });

    it('a key belongs to one user: another user with the same key runs, with another body too', async () => {
      const key = freshKey();
      await subject.write({ key }).expect(subject.status);
      if (name === 'template') {
        // Only the owner writes a template: the admin uses the key on a template of their own.
        const own = await s.t.http
          .patch(
            subject.path.replace(subject.row.id, await seedTemplate(s.t.app, s.ws, { owner_id: s.ws.users.admin })),
          )
          .set({ Authorization: s.ws.auth.admin, 'Idempotency-Key': key })
          .send(subject.body);
        expect({ status: own.status, replayed: replayed(own) }).toEqual({ status: 200, replayed: false });
        return;
      }
      const before = await snapshot(subject);
      const admin = await subject.write({ key, auth: 'admin', body: subject.otherBody }).expect(subject.status);
      expect(replayed(admin)).toBe(false);
      const after = await snapshot(subject);
      expect(etagOf(admin)).toBe(after.etag);
      if (name !== 'archive') expect(after.etag).not.toBe(before.etag);
    });

    it('a key belongs to the user, not the token: the same user through an OAuth token gets the replay', async () => {
      const key = freshKey();
      const first = await subject.write({ key }).expect(subject.status);
      expectReplayOf(await subject.write({ key, auth: 'oauth' }), first);
    });

    it('answers a repeat while the first request still runs with 409 and Retry-After, then replays', async () => {
      const key = freshKey();
      const lock = await lockRow(subject);
      let first: Promise<Response>;
      try {
        first = subject.write({ key }).then((res) => res);
        await waitFor(
          'the first request to wait for the row lock',
          () => lock.waiters(),
          (n) => n > 0,
        );
        const second = await subject.write({ key });
        // Answered while the first still waits: a repeat does not queue behind the request it repeats.
        expect({ second: second.status, firstStillWaiting: (await lock.waiters()) > 0 }).toEqual({
          second: 409,
          firstStillWaiting: true,
        });
        expectError(second, 'IDEMPOTENCY_KEY_IN_USE');
        expect(second.headers['retry-after']).toMatch(/^\d+$/);
      } finally {
        await lock.release();
      }
      const done = await first;
      expect({ status: done.status, replayed: replayed(done) }).toEqual({ status: subject.status, replayed: false });
      expectReplayOf(await subject.write({ key }), done);
    });

    it('of 10 concurrent identical keyed requests one runs; the others get 409 or its replay', async () => {
      const key = freshKey();
      const before = await snapshot(subject);
      const { result: answers, counts } = await countExecutions(allForms(subject), () =>
        Promise.all(Array.from({ length: 10 }, () => subject.write({ key }).then((res) => res))),
      );
      expect(counts).toEqual({ ...none(subject), [subject.statement]: 1 });
      const ran = answers.filter((res) => res.status === subject.status && !replayed(res));
      for (const res of answers) expect([subject.status, 409]).toContain(res.status);
      expect(ran).toHaveLength(1);
      for (const res of answers) {
        if (res.status === 409) {
          expectError(res, 'IDEMPOTENCY_KEY_IN_USE');
          expect(res.headers['retry-after']).toMatch(/^\d+$/);
        } else if (res !== ran[0]) expectReplayOf(res, ran[0]);
      }
      const after = await snapshot(subject);
      expect(after.etag).not.toBe(before.etag);
      expect(etagOf(ran[0])).toBe(after.etag);
      if (subject.status === 200) expect(stored(ran[0])).toEqual(after.resource);
      expectReplayOf(await subject.write({ key }), ran[0]);
    });
  });

  it('a repeat is answered from its key whatever its If-Match (the fingerprint: method, path, body)', async () => {
    const page = await seedSubject(s, 'page');
    const key = freshKey();
    const first = await page.write({ key }).expect(200);
    expectReplayOf(await page.write({ key, ifMatch: '"stale"' }), first);
  });

  it('replays a card answer kept before write calls (without `matched`) as kept, with its If-Match', async () => {
    const card = await seedSubject(s, 'tags');
    const key = freshKey();
    const ifMatch = etagOf(await card.read().expect(200));
    const first = await card.write({ key, ifMatch }).expect(204);
    await keyRows(card, key, `UPDATE idempotency_keys SET answer = answer - 'matched'`);
    expectReplayOf(await card.write({ key, ifMatch }), first);
  });

  it('the same key on another route of the same page is another request: 422', async () => {
    const page = await seedSubject(s, 'page');
    const key = freshKey();
    await page.write({ key }).expect(200);
    const before = await snapshot(page);
    const archive = await s.t.http
      .put(`${page.path}/archive`)
      .set({ Authorization: s.ws.auth.member, 'Idempotency-Key': key });
    expectError(archive, 'IDEMPOTENCY_KEY_REUSED');
    expect(await snapshot(page)).toEqual(before);
  });

  describe('a retry after 503 REQUEST_TIMEOUT', () => {
    const slow = {} as Scene;
    beforeAll(async () => {
      slow.t = await createTestApp({ REQUEST_TIMEOUT_MS: '1000' });
      slow.ws = await seedWorkspace(slow.t.app);
    });
    afterAll(() => slow.t?.close());

    it('gets the kept answer if the timed-out write went through, else runs it: never twice, never lost', async () => {
      const page = await seedSubject(slow, 'page');
      const key = freshKey();
      const before = await snapshot(page);
      const lock = await lockRow(page);
      try {
        const first = page.write({ key }).then((res) => res);
        await waitFor(
          'the write to wait for the row lock',
          () => lock.waiters(),
          (n) => n > 0,
        );
        expectError(await first, 'REQUEST_TIMEOUT');
      } finally {
        await lock.release();
      }
      await waitFor(
        'the timed-out request to be done with its key',
        () => keyStatuses(page, key),
        (statuses) => statuses.every((status) => status !== null),
      );
      const between = await snapshot(page);
      const retry = await page.write({ key }).expect(200);
      const after = await snapshot(page);
      if (between.etag === before.etag) {
        expect({ replayed: replayed(retry), title: after.resource.title }).toEqual({
          replayed: false,
          title: 'Retitled',
        });
      } else {
        expect({ replayed: replayed(retry), etag: etagOf(retry) }).toEqual({ replayed: true, etag: between.etag });
        expect(after).toEqual(between);
      }
      expect(etagOf(retry)).toBe(after.etag);
    });
  });

  describe('24 hours', () => {
    const age = (subject: Subject, key: string) =>
      keyRows(subject, key, `UPDATE idempotency_keys SET expires_at = now() - interval '1 second'`);

    it('keeps an answer for 24 hours', async () => {
      const page = await seedSubject(s, 'page');
      const key = freshKey();
      await page.write({ key }).expect(200);
      const [row] = await keyRows<{ hours: number }>(
        page,
        key,
        `SELECT extract(epoch FROM expires_at - now()) / 3600 AS hours`,
      );
      expect(Number(row.hours)).toBeCloseTo(24, 1);
    });

    it('runs a request again once its key expired, and keeps the new answer', async () => {
      const page = await seedSubject(s, 'page');
      const key = freshKey();
      await page.write({ key }).expect(200);
      await age(page, key);
      const again = await page.write({ key }).expect(200);
      expect(replayed(again)).toBe(false);
      expectReplayOf(await page.write({ key }), again);
    });

    it('sweeps expired keys, and only those', async () => {
      const page = await seedSubject(s, 'page');
      const [expired, kept] = [freshKey(), freshKey()];
      await page.write({ key: expired }).expect(200);
      const first = await page.write({ key: kept }).expect(200);
      await age(page, expired);
      await s.t.app.get(IdempotencyKeySweeper).sweep();
      expect(await keyRows(page, expired, 'SELECT key')).toEqual([]);
      expectReplayOf(await page.write({ key: kept }), first);
    });
  });

  it('keeps nothing for a 400: the same key with a valid body then runs', async () => {
    const page = await seedSubject(s, 'page');
    const key = freshKey();
    expectError(await page.write({ key, body: { title: null } }), 'VALIDATION_FAILED');
    const res = await page.write({ key }).expect(200);
    expect({ title: res.body.page.title, replayed: replayed(res) }).toEqual({ title: 'Retitled', replayed: false });
  });
});
