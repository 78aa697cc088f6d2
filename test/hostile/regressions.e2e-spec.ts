import { expectError } from '../support/expect-error';
import { importDocument } from '../support/fixtures';
import { useScene } from '../support/scene';
import { seedHostileWorkspace, workspaceExport } from './hostile-harness';

/** Shrunk counterexamples of the hostile-input properties, kept as plain tests with their literal input. */
describe('hostile input regressions', () => {
  const s = useScene();
  beforeAll(() => seedHostileWorkspace(s.t.app, s.ws));
  const patchPage = (id: string, body: string | Buffer) =>
    s.t.http
      .patch(`/v1/${s.ws.teamId}/pages/${id}`)
      .set('Authorization', s.ws.auth.member)
      .set('Content-Type', 'application/json')
      .serialize((bytes: unknown) => bytes as string)
      .send(body);

  it('refuses a robots directive listed twice, which would leave a workspace whose export cannot be imported', async () => {
    const before = await workspaceExport(s.t.app, s.ws.teamId);
    expectError(await patchPage('1', '{"public_settings":{"robots":["all","all"]}}'), 'VALIDATION_FAILED', /^public_settings\.robots .*twice/);
    expect(await workspaceExport(s.t.app, s.ws.teamId)).toEqual(before);
    await importDocument(s.t.app, before as object);
  });

  it.each([
    ['Latin-1 text', Buffer.from('{"title":"Caf\u00e9"}', 'latin1')],
    ['a surrogate encoded as UTF-8 bytes (CESU-8)', Buffer.from('{"title":"\xed\xa0\x80"}', 'latin1')],
    ['a truncated UTF-8 sequence', Buffer.from('{"title":"\xe2\x82"}', 'latin1')],
  ])('refuses a body of %s with 400 MALFORMED_JSON instead of storing U+FFFD', async (_, bytes) => {
    const before = await workspaceExport(s.t.app, s.ws.teamId);
    expectError(await patchPage('2', bytes), 'MALFORMED_JSON', /not valid UTF-8/);
    expect(await workspaceExport(s.t.app, s.ws.teamId)).toEqual(before);
  });
});
