// `npm run build` unless dist/ was built by this script from exactly the inputs here, so that `npm run cli`,
// `npm start` and the migration scripts start at once in an unchanged checkout. Inputs are compared by
// content, not by time, so a checkout, a stash or a copy that keeps old times still rebuilds.
'use strict';
const { spawnSync } = require('node:child_process');
const { createHash } = require('node:crypto');
const { existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const stamp = join(root, 'dist', '.build-inputs');
// Written by every build: when its time differs from the stamp's, something else built dist/ since.
const output = join(root, 'dist', 'src', 'cli', 'main.js');
const DIRECTORIES = ['src', 'migrations'];
const FILES = ['package.json', 'tsconfig.json', 'tsconfig.build.json', 'node_modules/typescript/package.json'];
// What tsconfig.build.json compiles; editor swap files and unit specs do not count.
const compiled = (name) => /\.(ts|json)$/.test(name) && !name.endsWith('.spec.ts');

function inputsHash() {
  const hash = createHash('sha256');
  const add = (path) => {
    const content = existsSync(join(root, path)) ? readFileSync(join(root, path)) : Buffer.alloc(0);
    hash.update(`${path}\0${content.length}\0`).update(content);
  };
  const walk = (dir) => {
    const entries = readdirSync(join(root, dir), { withFileTypes: true });
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (compiled(entry.name)) add(path);
    }
  };
  DIRECTORIES.forEach(walk);
  FILES.forEach(add);
  return hash.digest('hex');
}

const outputTime = () => (existsSync(output) ? String(statSync(output).mtimeMs) : 'none');

const inputs = inputsHash();
const fresh = existsSync(stamp) && readFileSync(stamp, 'utf8') === `${inputs} ${outputTime()}`;
if (!fresh) {
  // A build that fails half way leaves dist/ neither old nor new: no stamp may vouch for it.
  rmSync(stamp, { force: true });
  process.stderr.write('dist/ does not match the sources: npm run build\n');
  const build = spawnSync('npm run build --silent', { cwd: root, stdio: 'inherit', shell: true });
  if (build.status !== 0) process.exit(build.status ?? 1);
  // The inputs read before the build: an edit made during it makes the next run build again.
  writeFileSync(stamp, `${inputs} ${outputTime()}`);
}
