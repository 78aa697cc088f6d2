import type { Response } from 'supertest';
import { ErrorCode } from '../../src/errors/catalogue';
import { pageId, seedPages } from '../pages/page-fixtures';
import { expectError } from '../support/expect-error';
import { useScene } from '../support/scene';
import { etagOf, missingPath, seedSubject, snapshot, stored, Subject, tagIds, WRITE_NAMES } from './safe-writes';

const NOT_FOUND: Record<Subject['name'], ErrorCode> = {
  template: 'NOTE_TEMPLATE_NOT_FOUND',
  page: 'PAGE_NOT_FOUND',
  archive: 'PAGE_NOT_FOUND',
  tags: 'CARD_NOT_FOUND',
};

/** decisions.md: If-Match on the four writes (strong comparison, lists, `*`); a mismatch is 412 and changes nothing. */
describe('If-Match on the writes', () => {
  const s = useScene();

  describe.each(WRITE_NAMES)('%s', (name) => {
    let subject: Subject;
    beforeEach(async () => (subject = await seedSubject(s, name)));

    /** Sends the write with `ifMatch`, expects the 412 and that the resource is exactly as it was. */
    async function expectRefused(ifMatch: string, body?: object): Promise<void> {
      const before = await snapshot(subject);
      const res = await subject.write({ ifMatch, body });
      expect({ ifMatch, status: res.status }).toEqual({ ifMatch, status: 412 });
      expectError(res, 'PRECONDITION_FAILED');
      expect(await snapshot(subject)).toEqual(before);
    }

    const matching: Array<[string, (etag: string) => string]> = [
      ['the current ETag', (etag) => etag],
      ['*', () => '*'],
      ['a list holding the current ETag', (etag) => `"other", ${etag}`],
      ['a list holding it, without spaces', (etag) => `"a","b",${etag}`],
    ];
    it.each(matching)('writes when If-Match is %s, and answers the new ETag', async (_, form) => {
      const before = await snapshot(subject);
      const res = await subject.write({ ifMatch: form(before.etag) }).expect(subject.status);
      const after = await snapshot(subject);
      expect(etagOf(res)).toBe(after.etag);
      expect(after.etag).not.toBe(before.etag);
    });

    it('refuses a stale ETag with 412, and nothing changes', async () => {
      const stale = (await snapshot(subject)).etag;
      await subject.alter();
      await expectRefused(stale);
      await expectRefused(`"other", ${stale}`);
    });

    it('compares strongly: the weak form of the current ETag is a 412', async () => {
      const { etag } = await snapshot(subject);
      await expectRefused(`W/${etag}`);
      await expectRefused(`W/"x", W/${etag}`);
    });

    it.each(['"not-a-version"', '""', 'garbage', '"unterminated', '"a", "b"', ',', '**', '"*"'])(
      'refuses If-Match %j with 412, and nothing changes',
      async (ifMatch) => expectRefused(ifMatch),
    );

    it('answers 404 before 412 for a resource that does not exist, even with *', async () => {
      const { etag } = await snapshot(subject);
      for (const ifMatch of [etag, '"stale"', '*']) {
        expectError(await subject.write({ ifMatch, path: missingPath(subject) }), NOT_FOUND[name]);
      }
    });

    it('answers 403 before 412 to a caller who may not write, even with the current ETag', async () => {
      const { etag } = await snapshot(subject);
      for (const ifMatch of [etag, '"stale"']) {
        expectError(await subject.write({ auth: 'viewer', ifMatch }), 'ACCESS_DENIED');
      }
      if (name === 'template') {
        // Not the caller's own template: a 403 that depends on the resource, still before the 412.
        expectError(await subject.write({ auth: 'admin', ifMatch: '"stale"' }), 'ACCESS_DENIED');
      }
    });

    it('of 8 concurrent writes sent with the same version, exactly one wins; the others get 412', async () => {
      const before = await snapshot(subject);
      const bodies = subject.rivalBodies(8);
      const answers: Response[] = await Promise.all(
        bodies.map((body) => subject.write({ ifMatch: before.etag, body }).then((res) => res)),
      );
      const statuses = answers.map((res) => res.status);
      expect(statuses.filter((status) => status === subject.status)).toHaveLength(1);
      expect(statuses.filter((status) => status === 412)).toHaveLength(7);
      const winner = statuses.indexOf(subject.status);
      for (const res of answers) if (res.status === 412) expectError(res, 'PRECONDITION_FAILED');
      const after = await snapshot(subject);
      expect(after.etag).toBe(etagOf(answers[winner]));
      const won = bodies[winner] as Record<string, string>;
      if ('title' in won) expect(after.resource.title).toBe(won.title);
      if (name === 'tags') expect(tagIds(after.resource)).toEqual([won.id]);
      if (name === 'archive') expect(after.resource.archived).toBeDefined();
      if (subject.status === 200) expect(stored(answers[winner])).toEqual(after.resource);
    });
  });

  describe('comes after validation and existence, before the operation’s own rules', () => {
    it('a page move into its own subtree with a stale If-Match is a 412, not the cycle error', async () => {
      const parent = pageId();
      const [, child] = await seedPages(s.t.app, s.ws, [{ id: parent }, { id: pageId(), parent }]);
      const path = `/v1/${s.ws.teamId}/pages/${parent}`;
      const patch = (ifMatch: string) =>
        s.t.http
          .patch(path)
          .set({ Authorization: s.ws.auth.member, 'If-Match': ifMatch })
          .send({ parent_page_id: child });
      const read = await s.t.http.get(path).set('Authorization', s.ws.auth.member).expect(200);
      expectError(await patch('"stale"'), 'PRECONDITION_FAILED');
      expectError(await patch(read.headers.etag), 'PAGE_PARENT_CYCLE');
    });

    it('an attach of an unknown tag with a stale If-Match is a 412, not the 404 naming the tag', async () => {
      const tags = await seedSubject(s, 'tags');
      const { etag } = await snapshot(tags);
      expectError(await tags.write({ ifMatch: '"stale"', body: { id: '987654321' } }), 'PRECONDITION_FAILED');
      expectError(await tags.write({ ifMatch: etag, body: { id: '987654321' } }), 'TAG_NOT_FOUND');
    });

    it.each(['template', 'page', 'tags'] as const)(
      'an invalid %s body with a stale If-Match is the 400 (validation comes first)',
      async (name) => {
        const subject = await seedSubject(s, name);
        const body = name === 'tags' ? {} : { title: null };
        const res = await subject.write({ ifMatch: '"stale"', body });
        expect(res.status).toBe(400);
      },
    );

    it('a write without If-Match behaves as before', async () => {
      const page = await seedSubject(s, 'page');
      await page.alter();
      const res = await page.write().expect(200);
      expect(res.body.page.title).toBe('Retitled');
    });
  });
});
