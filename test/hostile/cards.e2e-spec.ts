import fc from 'fast-check';
import {
  hostileAuth,
  hostilePath,
  hostileRequests,
  orHostile,
  quoted,
  rawFieldsObject,
  rawNotAnObject,
  rawValidObject,
  validPath,
} from './arbitraries';
import { requestedId, SEEDED, serverView, useHostileScene } from './hostile-harness';
import { hostileTimeout } from './hostile-runs';

describe('hostile requests: cards', () => {
  const { s, sendChecked, assert } = useHostileScene('cards');

  const tagId = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...SEEDED.tags) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '7',
        '0',
        '01',
        '0000000000000000003',
        '9223372036854775807',
        '9223372036854775808',
        '9999999999999999999',
        '1'.repeat(20),
        '',
        ' 1',
        '1 ',
        '-1',
        '+1',
        '1.0',
        '1e2',
        '0x1',
        '\u0661',
        '\uff11',
        '1\u0000',
        'abc',
      ),
    },
  );
  const ids = fc.oneof(
    { weight: 6, arbitrary: fc.array(tagId, { maxLength: 6 }).map((list) => JSON.stringify(list)) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        JSON.stringify(Array.from({ length: 100 }, (_, n) => String(n + 1000))),
        JSON.stringify(Array.from({ length: 101 }, (_, n) => String(n + 1000))),
        JSON.stringify(Array(5000).fill('1')),
        JSON.stringify([...Array(99).fill('2'), '3', '4']),
        '[["1"]]',
        '[1, 2]',
        '[null]',
        '{"0": "1", "length": 1}',
      ),
    },
  );
  const hostileBody = fc.oneof(
    { weight: 4, arbitrary: rawFieldsObject({ id: orHostile(tagId.map(quoted)), ids: orHostile(ids) }, 3) },
    { weight: 1, arbitrary: rawNotAnObject },
  );
  // On cards 1 and 2 (project 1): workspace-wide tags 1, 2, 10.. and project 1's 3, 4 are usable;
  // 5 (project 2's) is not.
  const usable = fc.oneof(fc.constantFrom('1', '2', '3', '4', '5', '0003'), fc.constantFrom(...SEEDED.moreTags));
  const validBody = rawValidObject({
    id: usable.map(quoted),
    ids: fc.array(usable, { maxLength: 4 }).map((list) => JSON.stringify(list)),
  });

  it(
    'POST tags: every answer is 204 or a contract error, a refusal attaches nothing, ' +
      'a 204 is what a GET of the card then shows',
    async () => {
      const requests = hostileRequests({
        method: 'post',
        path: {
          valid: validPath(s, 'cards', ['1', '2'], '/tags'),
          hostile: hostilePath(s, 'cards', [...SEEDED.cards, '4'], '/tags'),
        },
        auth: {
          valid: [
            s.ws.auth.member,
            s.ws.auth.owner,
            s.ws.auth.admin,
            s.ws.auth.oauth,
            s.ws.auth.agent,
            s.ws.auth.guest,
          ],
          hostile: hostileAuth(s),
        },
        body: { valid: validBody, hostile: hostileBody },
      });
      await assert(
        requests,
        async (req) => {
          const res = await sendChecked(req);
          if (res.status !== 204) return;
          expect(res.text).toBe('');
          const sent = serverView(req) as { id?: string; ids?: string[] };
          const wanted = [...(sent.id === undefined ? [] : [sent.id]), ...(sent.ids ?? [])].map((id: string) =>
            BigInt(id).toString(),
          );
          const read = await s.t.http
            .get(req.path.replace(/\/tags$/, ''))
            .set('Authorization', req.headers.Authorization!);
          expect(read.status).toBe(200);
          const tags: string[] = read.body.card.tags.map((t: { id: string }) => t.id);
          expect(tags).toEqual(expect.arrayContaining(wanted));
          expect(new Set(tags).size).toBe(tags.length);
        },
        600,
      );
    },
    hostileTimeout(600),
  );

  it(
    'GET: every answer is 200, 304 (If-None-Match) or a contract error, and reading changes nothing',
    async () => {
      const requests = hostileRequests({
        method: 'get',
        path: { valid: validPath(s, 'cards', SEEDED.cards), hostile: hostilePath(s, 'cards', [...SEEDED.cards, '4']) },
        auth: { valid: [s.ws.auth.member, s.ws.auth.viewer, s.ws.auth.guest], hostile: hostileAuth(s) },
        body: { valid: fc.constant(undefined), hostile: fc.oneof(rawNotAnObject, hostileBody) },
      });
      await assert(
        requests,
        async (req) => {
          const res = await sendChecked(req);
          if (res.status === 200) expect(BigInt(res.body.card.id)).toBe(BigInt(requestedId(req)));
        },
        300,
      );
    },
    hostileTimeout(300),
  );
});
