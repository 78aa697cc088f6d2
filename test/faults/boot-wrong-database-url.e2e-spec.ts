import { testDatabaseUrl } from '../support/test-config';
import { LEVEL, useBoots } from './boot-process';

/** The suite's database URL, changed. */
function suiteUrl(change: (url: URL) => void): string {
  const url = new URL(testDatabaseUrl());
  change(url);
  return url.toString();
}

/** A password the output must never show. */
const PASSWORD = 'wca-boot-secret';

describe('Boot with a DATABASE_URL that cannot work (e2e)', () => {
  const boot = useBoots();

  it.each([
    // A role that does not exist either: refused the same way whether the server asks for passwords or trusts.
    [
      'a wrong user and password',
      'authentication failed',
      (url: URL) => ((url.username = 'wca_nobody'), (url.password = PASSWORD)),
    ],
    ['a database that does not exist', 'database missing', (url: URL) => (url.pathname = '/wca_no_such_database')],
    ['a host no name server knows', 'host not found', (url: URL) => (url.hostname = 'nohost.invalid')],
    ['TLS the server does not offer', 'TLS', (url: URL) => url.searchParams.set('sslmode', 'require')],
  ])(
    '%s: exits 1 within 5 s, saying so in one JSON line that names DATABASE_URL, the cause and the fix',
    async (_, cause, change) => {
      const service = await boot({ DATABASE_URL: suiteUrl(change) });
      expect(await service.exitsInTime()).toBe(1);
      const failures = service.entries().filter((entry) => entry.level >= LEVEL.error);
      expect(failures).toEqual([
        expect.objectContaining({
          level: LEVEL.fatal,
          variable: 'DATABASE_URL',
          cause,
          msg: expect.stringMatching(
            new RegExp(`^DATABASE_URL postgres(?:ql)?://\\S+: ${cause} \\(.+\\); \\w.+ DATABASE_URL`),
          ),
        }),
      ]);
      expect(service.notJson()).toEqual([]);
      expect(service.stderr()).toBe('');
      expect(service.stdout()).not.toContain(PASSWORD);
    },
  );
});
