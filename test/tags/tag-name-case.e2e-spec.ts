import { expectError } from '../support/expect-error';
import { seedWorkspace } from '../support/fixtures';
import { useScene } from '../support/scene';
import { freshName, tagClient } from './tag-fixtures';

/**
 * Tag names are unique ignoring case: two names collide when each character's Unicode simple lowercase is
 * the same (UnicodeData.txt, Unicode 16.0), on every PostgreSQL whatever its locale. Nothing else is
 * ignored: no full case folding (ß is not ss), no normalization, no other variant forms.
 */
describe('Tag names ignoring case, by Unicode letter', () => {
  const s = useScene();
  const api = () => tagClient(s.t, s.ws);

  it.each([
    ['ASCII', ['Bug', 'bug', 'BUG']],
    ['Latin-1', ['Éclair', 'éclair']],
    ['a titlecase digraph and its upper and lower case', ['\u01C5', '\u01C4', '\u01C6']],
    ['Greek capital sigma and small sigma', ['Σ', 'σ']],
    ['capital I with dot above and i (its simple lowercase)', ['\u0130', 'i']],
    ['the Kelvin sign and k', ['\u212A', 'k']],
    ['fullwidth letters', ['\uFF21', '\uFF41']],
    ['Deseret, beyond the Basic Multilingual Plane', ['\u{10400}', '\u{10428}']],
    ['a capital new in Unicode 16 and its lowercase', ['\uA7CB', '\u0264']],
  ])('%s collide: the first is created, every other is 409', async (_case, variants) => {
    const suffix = freshName('');
    const [first, ...others] = variants;
    await api()
      .create({ name: `${first}${suffix}`, color: 'red' })
      .expect(201);
    for (const other of others) {
      expectError(await api().create({ name: `${other}${suffix}`, color: 'red' }), 'TAG_NAME_TAKEN');
    }
  });

  it.each([
    ['sharp s and ss (full case folding only)', ['ß', 'ss']],
    ['final sigma and sigma (both small)', ['ς', 'σ']],
    ['precomposed é and e with a combining acute (no normalization)', ['\u00E9', 'e\u0301']],
  ])('%s do not collide: both are created', async (_case, variants) => {
    const suffix = freshName('');
    for (const variant of variants)
      await api()
        .create({ name: `${variant}${suffix}`, color: 'red' })
        .expect(201);
  });

  it('renames to a name another tag holds in another case: 409; to its own in another case: 200', async () => {
    const suffix = freshName('');
    const held = (
      await api()
        .create({ name: `Ärger${suffix}`, color: 'red' })
        .expect(201)
    ).body.tag;
    const other = (
      await api()
        .create({ name: `Ruhe${suffix}`, color: 'red' })
        .expect(201)
    ).body.tag;
    expectError(await api().update(other.id, { name: `äRGER${suffix}` }), 'TAG_NAME_TAKEN');
    const renamed = await api()
      .update(held.id, { name: `ÄRGER${suffix}` })
      .expect(200);
    expect(renamed.body.tag).toMatchObject({ id: held.id, name: `ÄRGER${suffix}` });
  });

  it('lists by name ignoring case in code point order, whatever the locale', async () => {
    const ws = await seedWorkspace(s.t.app);
    const names = ['zeta', 'Émile', 'alpha', 'ǅemal', 'Zürich', 'émilie', 'Ωmega', 'Beta'];
    for (const name of names) await tagClient(s.t, ws).create({ name, color: 'red' }).expect(201);
    const { body } = await tagClient(s.t, ws).list().expect(200);
    expect(body.tags.map((t: { name: string }) => t.name)).toEqual([
      'alpha',
      'Beta',
      'zeta',
      'Zürich',
      'Émile',
      'émilie',
      'ǅemal',
      'Ωmega',
    ]);
  });
});
