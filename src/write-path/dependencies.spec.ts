import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The shared write machinery and the webhooks, which the features use: none of them may use a feature. */
const MACHINERY = ['write-path', 'webhooks', 'safe-writes'];
const FEATURES = ['pages', 'notes', 'cards'];

const SRC = join(__dirname, '..');

function sourcesUnder(dir: string): string[] {
  return readdirSync(join(SRC, dir), { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.ts'))
    .map((path) => join(SRC, dir, path));
}

describe('Dependencies run one way', () => {
  it.each(MACHINERY)('nothing under src/%s imports a feature', (dir) => {
    const imports = sourcesUnder(dir).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/from '(\.\.?\/[^']+)'/g)]
        .map((match) => relative(SRC, join(file, '..', match[1])))
        .filter((target) => FEATURES.some((feature) => target.startsWith(`${feature}/`)))
        .map((target) => `${relative(SRC, file)} imports ${target}`),
    );
    expect(imports).toEqual([]);
  });
});
