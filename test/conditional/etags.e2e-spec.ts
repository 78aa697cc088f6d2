import type { Response } from 'supertest';
import { expectError } from '../support/expect-error';
import { useScene } from '../support/scene';
import { Auth, etagOf, seedSubject, snapshot, stored, Subject, WriteName } from './safe-writes';

/** Everyone who may read the seeded resources: the shared template, the guest's page, the guest's card. */
const READERS: readonly Auth[] = ['member', 'owner', 'admin', 'guest', 'viewer', 'oauth', 'agent'];

/** The resource each write changes, and what a caller's view of it differs in. */
const RESOURCES = [
  { name: 'template', write: 'template', perCaller: ['is_favourited'] },
  { name: 'page', write: 'page', perCaller: ['collaboration', 'bookmarked', 'is_bookmarked', 'is_watching'] },
  { name: 'card', write: 'tags', perCaller: [] },
] as const satisfies ReadonlyArray<{ name: string; write: WriteName; perCaller: readonly string[] }>;

/** decisions.md, "Versions (ETag)": a strong ETag naming the stored version, the same for every reader. */
describe('ETags: the stored version of a template, page or card', () => {
  const s = useScene();

  describe.each(RESOURCES)('a $name', ({ write, perCaller }) => {
    let subject: Subject;
    beforeEach(async () => (subject = await seedSubject(s, write)));

    it('is the same strong ETag for every reader and every read, whatever differs per caller or request', async () => {
      const reads: Response[] = [];
      for (const auth of READERS) for (let n = 0; n < 2; n++) reads.push(await subject.read(auth).expect(200));
      const etags = new Set(reads.map(etagOf));
      expect(etags.size).toBe(1);
      const views = new Set(reads.map((res) => JSON.stringify(stored(res))));
      expect(views.size).toBe(1);
      if (perCaller.length === 0) return;
      // The per-caller and per-request parts do differ, so the ETag cannot be a hash of the body.
      const resourceOf = (res: Response) => Object.values(res.body)[0] as Record<string, unknown>;
      const differing = new Set(reads.map((res) => JSON.stringify(perCaller.map((f) => resourceOf(res)[f]))));
      expect(differing.size).toBeGreaterThan(1);
    });

    it('changes with every real change, to one never seen before, and is the ETag the write answered', async () => {
      const seen = [(await snapshot(subject)).etag];
      const writes = [
        () => subject.write().expect(subject.status),
        () => subject.alter(),
        ...subject.rivalBodies(2).map((body) => () => subject.write({ body }).expect(subject.status)),
      ];
      for (const change of writes) {
        const answered = etagOf(await change());
        const now = await snapshot(subject);
        expect(now.etag).toBe(answered);
        expect(seen).not.toContain(now.etag);
        seen.push(now.etag);
      }
    });

    it('is kept by a write that changes nothing, and that write answers it', async () => {
      await subject.write().expect(subject.status);
      const before = await snapshot(subject);
      const again = await subject.write().expect(subject.status);
      expect(etagOf(again)).toBe(before.etag);
      expect(await snapshot(subject)).toEqual(before);
      if (subject.method === 'patch') {
        const empty = await subject.write({ body: {} }).expect(200);
        expect(etagOf(empty)).toBe(before.etag);
        expect(await snapshot(subject)).toEqual(before);
      }
    });
  });

  it('PUT archive answers the ETag of the page it archived, and a GET then shows the same', async () => {
    const archive = await seedSubject(s, 'archive');
    const before = await snapshot(archive);
    const res = await archive.write().expect(200);
    expect(res.body.page.archived).toBeDefined();
    const after = await snapshot(archive);
    expect(etagOf(res)).toBe(after.etag);
    expect(after.etag).not.toBe(before.etag);
    expect(etagOf(await archive.write().expect(200))).toBe(after.etag);
  });

  it('the 204 of a tag attach carries the card ETag, with an empty body', async () => {
    const tags = await seedSubject(s, 'tags');
    const res = await tags.write().expect(204);
    expect(res.text ?? '').toBe('');
    expect(etagOf(res)).toBe((await snapshot(tags)).etag);
  });
});

describe('If-None-Match on a GET', () => {
  const s = useScene();

  describe.each(RESOURCES)('a $name', ({ write }) => {
    let subject: Subject;
    let etag: string;
    beforeEach(async () => {
      subject = await seedSubject(s, write);
      etag = (await snapshot(subject)).etag;
    });

    const expectNotModified = async (ifNoneMatch: string, headers: Record<string, string> = {}) => {
      const res = await subject.read('member', { 'If-None-Match': ifNoneMatch, ...headers });
      expect({ ifNoneMatch, status: res.status, text: res.text ?? '' }).toEqual({ ifNoneMatch, status: 304, text: '' });
    };

    it('is 304 with no body on a match: the ETag, its weak form, in a list, or *', async () => {
      for (const match of [etag, `W/${etag}`, `"other", ${etag}`, `W/"other",W/${etag}`, '*']) {
        await expectNotModified(match);
      }
    });

    it('is 304 whatever the request says about caches (Cache-Control: no-cache, max-age=0, Pragma)', async () => {
      await expectNotModified(etag, { 'Cache-Control': 'no-cache' });
      await expectNotModified(etag, { 'Cache-Control': 'max-age=0' });
      await expectNotModified(etag, { 'Cache-Control': 'no-cache', Pragma: 'no-cache' });
      await expectNotModified(`W/${etag}`, { 'Cache-Control': 'no-store' });
    });

    it('is 304 for every reader: the version is the same for all', async () => {
      for (const auth of READERS) {
        const res = await subject.read(auth, { 'If-None-Match': etag, 'Cache-Control': 'no-cache' });
        expect({ auth, status: res.status }).toEqual({ auth, status: 304 });
      }
    });

    it('is a 200 with the body and the current ETag when nothing matches, or once the resource changed', async () => {
      for (const other of ['"not-it"', 'W/"not-it"', `"${etag}"`, etag.slice(0, -2) + '"', 'garbage', '""']) {
        const res = await subject.read('member', { 'If-None-Match': other }).expect(200);
        expect(etagOf(res)).toBe(etag);
      }
      await subject.write().expect(subject.status);
      const res = await subject.read('member', { 'If-None-Match': etag, 'Cache-Control': 'no-cache' }).expect(200);
      expect(etagOf(res)).not.toBe(etag);
      await expectNotModified(res.headers.etag);
    });
  });

  it('an error stays an error whatever If-None-Match says', async () => {
    const res = await s.t.http
      .get(`/v1/${s.ws.teamId}/pages/987654321`)
      .set({ Authorization: s.ws.auth.member, 'If-None-Match': '*' });
    expectError(res, 'PAGE_NOT_FOUND');
  });

  it('a write ignores If-None-Match', async () => {
    const page = await seedSubject(s, 'page');
    const res = await page.write().set('If-None-Match', '*').expect(200);
    expect(res.body.page.title).toBe('Retitled');
  });
});
