import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SNAPSHOT_DIR, snapshotFiles, snapshots } from './snapshots';

/**
 * The committed `sql/` files are the final text of every statement the service sends, each form apart,
 * so that a reviewer reads in a diff the SQL a change ships. A statement changed without
 * `npm run sql:snapshot` fails here.
 */
describe('SQL snapshots (`npm run sql:snapshot` writes them)', () => {
  const wanted = snapshots();

  it.each([...wanted.keys()])('sql/%s is the statement as the code writes it', (path) => {
    const committed = readFileSync(join(SNAPSHOT_DIR, path), { encoding: 'utf8', flag: 'r' });
    expect(committed).toBe(wanted.get(path));
  });

  it('has no file for a statement that is gone, and none is missing', () => {
    expect(snapshotFiles().sort()).toEqual([...wanted.keys()].sort());
  });
});
