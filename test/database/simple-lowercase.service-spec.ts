import { createHash } from 'node:crypto';
import { Client } from 'pg';
import { unicode16Lowercase } from '../../migrations/unicode-16-lowercase';
import { describeFromMajor } from '../support/server-major';
import { testDatabaseUrl } from '../support/test-config';

/** Every code point a text may hold: all but NUL and the surrogates, in order. */
const EVERY_CHARACTER = `
  SELECT string_agg(chr(c), '' ORDER BY c) AS s FROM generate_series(1, 1114111) c WHERE c NOT BETWEEN 55296 AND 57343`;

const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');

/** simple_lowercase (migration 0012), on which tag names are unique: its table, and the server's own lower(). */
describe('simple_lowercase', () => {
  const table = unicode16Lowercase();
  const expected = (text: string) => [...text].map((c) => table[c] ?? c).join('');
  let db: Client;
  const one = async <T>(sql: string, params: unknown[] = []) => (await db.query<{ v: T }>(sql, params)).rows[0].v;

  beforeAll(async () => {
    db = new Client({ connectionString: testDatabaseUrl() });
    await db.connect();
  });
  afterAll(() => db?.end());

  it('maps every code point as the Unicode 16.0 table says, on every server', async () => {
    const every = await one<string>(`SELECT s AS v FROM (${EVERY_CHARACTER}) e`);
    expect([...every]).toHaveLength(1_114_111 - 2048);
    expect(await one<string>('SELECT md5(simple_lowercase($1::text)) AS v', [every])).toBe(md5(expected(every)));
  });

  it('maps an all-ASCII text (its path apart) as the table does: A-Z only', async () => {
    const ascii = String.fromCodePoint(...Array.from({ length: 127 }, (_, i) => i + 1));
    expect(await one<string>('SELECT simple_lowercase($1::text) AS v', [ascii])).toBe(expected(ascii));
  });

  it('keeps NULL and the empty text', async () => {
    expect(await one<string | null>('SELECT simple_lowercase(NULL) AS v')).toBeNull();
    expect(await one<string>(`SELECT simple_lowercase('') AS v`)).toBe('');
  });

  describeFromMajor(17, 'beside pg_c_utf8', 'the built-in collation is new in 17', () => {
    // On 18, whose Unicode is 16.0, that is every mapping of the table; on 17 (15.1), all but the new letters.
    it("is lower() under pg_c_utf8 on every character the server's Unicode assigns", async () => {
      const same = await one<boolean>(`
        SELECT lower(s COLLATE pg_c_utf8) = simple_lowercase(s) AS v
          FROM (SELECT string_agg(chr(c), '' ORDER BY c) AS s FROM generate_series(1, 1114111) c
                 WHERE c NOT BETWEEN 55296 AND 57343 AND unicode_assigned(chr(c))) e`);
      expect(same).toBe(true);
    });
  });
});
