import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { format } from 'sql-formatter';
import { catalogue, CatalogueEntry } from './catalogue';

/** Where the snapshots live: `sql/<feature>/<name>.sql` at the top of the repository (npm and jest run there). */
export const SNAPSHOT_DIR = join(process.cwd(), 'sql');

/**
 * The reviewable text of one statement: what it is, its parameters in the order PostgreSQL numbers
 * them, and its source (named parameters) formatted.
 */
export function snapshotOf({ feature, declaredAs, statement }: CatalogueEntry): string {
  const parameters = statement.parameters.map((name, i) => `$${i + 1} :${name}`).join(', ');
  const body = format(statement.source, {
    language: 'postgresql',
    paramTypes: { named: [':'] },
    keywordCase: 'upper',
    expressionWidth: 80,
  });
  return [
    `-- ${statement.name}: ${declaredAs} (src/${feature}). Written by \`npm run sql:snapshot\`; do not edit.`,
    `-- Parameters: ${parameters || 'none'}`,
    body,
    '',
  ].join('\n');
}

/** Every snapshot file's path under `sql/`, and its text. */
export function snapshots(): Map<string, string> {
  return new Map(catalogue().map((entry) => [join(entry.feature, `${entry.statement.name}.sql`), snapshotOf(entry)]));
}

/** Writes every snapshot, and removes the files of statements that are gone. */
export function writeSnapshots(dir = SNAPSHOT_DIR): void {
  const wanted = snapshots();
  rmSync(dir, { recursive: true, force: true });
  for (const [path, text] of wanted) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  console.log(`${wanted.size} statements written to ${relative(process.cwd(), dir) || '.'}`);
}

/** The snapshot files on disk: path under `dir`, for the test that keeps them in step. */
export function snapshotFiles(dir = SNAPSHOT_DIR): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((path) => path.endsWith('.sql'));
}

if (require.main === module) writeSnapshots();
