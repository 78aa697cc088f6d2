import fc from 'fast-check';
import {
  hostileAuth,
  hostilePath,
  hostileRequests,
  hostileTeam,
  junkSegment,
  orHostile,
  quoted,
  rawFieldsObject,
  rawNotAnObject,
  rawValidObject,
  validPath,
  validText,
} from './arbitraries';
import { SEEDED, serverView, useHostileScene } from './hostile-harness';
import { hostileTimeout } from './hostile-runs';

describe('hostile requests: tags', () => {
  const { s, sendChecked, assert } = useHostileScene('tags');
  const writers = () => [s.ws.auth.member, s.ws.auth.owner, s.ws.auth.admin, s.ws.auth.oauth, s.ws.auth.agent];
  const allTags = [...SEEDED.tags, ...SEEDED.moreTags];

  const color = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom('red', '#ff0000', 'dark_blue', 'a-b').map(quoted) },
    { weight: 1, arbitrary: fc.constantFrom('', 'x'.repeat(33), 'red;', 'rød', ' red', '#ff0000\n').map(quoted) },
  );
  const projectId = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom('"1"', '"2"', 'null') },
    { weight: 1, arbitrary: fc.constantFrom('"3"', '""', '"a b"', '"x".repeat(65)', '1').map((v) => v) },
  );
  const fields = { name: orHostile(validText(1, 64)), color: orHostile(color), project_id: projectId };
  const hostileBody = fc.oneof(
    { weight: 4, arbitrary: rawFieldsObject(fields, 4) },
    { weight: 1, arbitrary: rawNotAnObject },
  );
  const validBody = rawValidObject(
    { name: validText(1, 64), color: fc.constantFrom('red', '#00ff00').map(quoted), project_id: projectId },
    3,
  );
  const listPath = (team: fc.Arbitrary<string>) => team.map((t) => `/v1/${t}/tags`);

  it(
    'POST: every answer is 201 or a contract error; a 201 shows the name and colour sent',
    async () => {
      const requests = hostileRequests({
        method: 'post',
        path: { valid: listPath(fc.constant(s.ws.teamId)), hostile: listPath(hostileTeam(s)) },
        auth: { valid: writers(), hostile: hostileAuth(s) },
        body: {
          valid: fc
            .tuple(validBody, color)
            .map(([body, c]) => body.replace(/^\{/, `{"color":${c},`).replace(/,}$/, '}')),
          hostile: hostileBody,
        },
      });
      await assert(
        requests,
        async (req) => {
          const res = await sendChecked(req);
          if (res.status !== 201) return;
          const sent = serverView(req) as { name: string; color: string };
          expect(res.body.tag).toMatchObject({ name: sent.name, color: sent.color });
          expect(res.headers.location).toBe(`/v1/${s.ws.teamId}/tags/${res.body.tag.id}`);
        },
        300,
      );
    },
    hostileTimeout(300),
  );

  it(
    'GET: every answer is 200 or a contract error, with count and cursor',
    async () => {
      const value = fc.oneof(
        fc.constantFrom('true', 'false', '1', '2', '0', '500', '501', '-1', 'yes', '', '%00', 'e30', '1e2'),
        junkSegment,
      );
      const query = fc
        .array(fc.tuple(fc.constantFrom('project_id', 'all', 'limit', 'cursor', 'archived', 'LIMIT', 'all[]'), value), {
          maxLength: 4,
        })
        .map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}` : ''));
      const requests = hostileRequests({
        method: 'get',
        path: {
          valid: fc.tuple(listPath(fc.constant(s.ws.teamId)), query).map(([p, q]) => p + q),
          hostile: fc.tuple(listPath(hostileTeam(s)), query).map(([p, q]) => p + q),
        },
        auth: { valid: [s.ws.auth.member, s.ws.auth.guest, s.ws.auth.viewer], hostile: hostileAuth(s) },
        body: { valid: fc.constant(undefined), hostile: fc.oneof(rawNotAnObject, hostileBody) },
      });
      await assert(
        requests,
        async (req) => {
          const res = await sendChecked(req);
          if (res.status === 200) expect(res.body.count).toBe(res.body.tags.length);
        },
        300,
      );
    },
    hostileTimeout(300),
  );

  it(
    'PATCH: every answer is 200 or a contract error; a 200 shows what was sent',
    async () => {
      const requests = hostileRequests({
        method: 'patch',
        path: { valid: validPath(s, 'tags', allTags), hostile: hostilePath(s, 'tags', [...allTags, '99']) },
        auth: { valid: writers(), hostile: hostileAuth(s) },
        body: { valid: validBody, hostile: hostileBody },
      });
      await assert(
        requests,
        async (req) => {
          const res = await sendChecked(req);
          if (res.status !== 200) return;
          const sent = serverView(req) as { name?: string; color?: string };
          if (sent.name !== undefined) expect(res.body.tag.name).toBe(sent.name);
          if (sent.color !== undefined) expect(res.body.tag.color).toBe(sent.color);
        },
        300,
      );
    },
    hostileTimeout(300),
  );

  it(
    'DELETE from a card, then DELETE tags: every answer is 204 or a contract error; a deleted tag is gone',
    async () => {
      const tagSegment = fc.constantFrom(...allTags, '99', '0', '9999999999999999999', '1e2', '-1', '%20');
      const untag = hostileRequests({
        method: 'delete',
        path: {
          valid: fc
            .tuple(fc.constantFrom(...SEEDED.cards), fc.constantFrom(...allTags))
            .map(([c, t]) => `/v1/${s.ws.teamId}/cards/${c}/tags/${t}`),
          hostile: fc
            .tuple(hostilePath(s, 'cards', [...SEEDED.cards, '4']), tagSegment)
            .map(([p, t]) => `${p}/tags/${t}`),
        },
        auth: { valid: [...writers(), s.ws.auth.guest], hostile: hostileAuth(s) },
        body: { valid: fc.constant(undefined), hostile: fc.oneof(rawNotAnObject, hostileBody) },
      });
      await assert(
        untag,
        async (req) => {
          const res = await sendChecked(req);
          if (res.status === 204) expect(res.text).toBe('');
        },
        200,
      );
      const remove = hostileRequests({
        method: 'delete',
        path: { valid: validPath(s, 'tags', allTags), hostile: hostilePath(s, 'tags', [...allTags, '99']) },
        auth: { valid: writers(), hostile: hostileAuth(s) },
        body: { valid: fc.constant(undefined), hostile: fc.oneof(rawNotAnObject, hostileBody) },
      });
      await assert(
        remove,
        async (req) => {
          const res = await sendChecked(req);
          if (res.status !== 204 || res.headers['idempotent-replayed'] === 'true') return;
          // A hostile path may name the other workspace's tag, deleted with that workspace's own token.
          const owner = req.path.startsWith(`/v1/${s.other.teamId}/`) ? s.other.auth.owner : s.ws.auth.owner;
          const again = await s.t.http.delete(req.path).set('Authorization', owner);
          expect(again.status).toBe(404);
        },
        150,
      );
    },
    hostileTimeout(350),
  );
});
