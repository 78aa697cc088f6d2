import fc from 'fast-check';
import type { Scene } from '../support/scene';
import type { HostileRequest, Method } from './hostile-harness';

/**
 * Generators of hostile requests. Bodies are built as raw JSON text, not as values, so that they can
 * hold what JSON.stringify never writes: duplicated keys, escaped lone surrogates, -0, numbers past
 * double precision or range (1e400 parses to Infinity), and malformed text. The server's view of a
 * body is JSON.parse of that text (the last duplicate wins), which is what the specs model.
 */

/** A JSON string literal of any text, escaped by JSON.stringify (astral characters stay literal). */
export const quoted = (s: string) => JSON.stringify(s);

export const LONG_LENGTHS = [255, 256, 1000, 5000] as const;

/** Raw JSON string literals, hostile ones included. */
export const rawString: fc.Arbitrary<string> = fc.oneof(
  { weight: 40, arbitrary: fc.string({ maxLength: 20 }).map(quoted) },
  { weight: 30, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }).map(quoted) },
  { weight: 20, arbitrary: fc.string({ unit: 'grapheme', maxLength: 10 }).map(quoted) },
  {
    weight: 20,
    arbitrary: fc.constantFrom(
      '""',
      '" "',
      '"\\ud800"', // lone high surrogate
      '"a\\udc00b"', // lone low surrogate
      '"\\udc00\\ud800"', // reversed pair
      '"\\ud83d\\ude00"', // a valid escaped pair
      '"😀🏳️‍🌈"',
      '"\\u0000"',
      '"nul\\u0000inside"',
      '"\\u202e\\u200b\\ufeff"',
      '"line\\nbreak\\ttab"',
      '"1"',
      '"-1"',
      '"01"',
      '"9223372036854775807"',
      '"9223372036854775808"',
      '"true"',
      '"null"',
      '"<script>alert(1)</script>"',
      '"\'; DROP TABLE pages; --"',
      '"$1"',
      '"%s%n"',
      '"../../etc/passwd"',
    ),
  },
  {
    weight: 10,
    arbitrary: fc
      .tuple(fc.constantFrom(...LONG_LENGTHS), fc.constantFrom('x', '😀', 'é', '\u0301', '\\ud800'))
      .map(([n, c]) => `"${c.repeat(n)}"`),
  },
  { weight: 1, arbitrary: fc.constantFrom(102400, 102401).map((n) => `"${'😀'.repeat(n)}"`) },
);

/** Raw JSON number literals, including the ones that do not survive a round trip through a double. */
export const rawNumber: fc.Arbitrary<string> = fc.oneof(
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => JSON.stringify(n)),
  fc.constantFrom(
    '0',
    '-0',
    '-0.0',
    '0e0',
    '1',
    '-1',
    '1.5',
    '1.0',
    '1E2',
    '1e+2',
    '2147483647',
    '2147483648',
    '4294967296',
    '9007199254740991',
    '9007199254740993',
    '-9007199254740993',
    '9223372036854775807',
    '9223372036854775808',
    '123456789012345678901234567890',
    '1e21',
    '1e308',
    '-1e308',
    '1.7976931348623157e308',
    '1e309',
    '-1e400',
    '5e-324',
    '1e-400',
    '-1e-400',
    '0.1',
    '1e-7',
  ),
);

const rawLiteral: fc.Arbitrary<string> = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom('null', 'true', 'false') },
  { weight: 2, arbitrary: rawNumber },
  { weight: 3, arbitrary: rawString },
);

/** Keys that name Object.prototype's members or reach a prototype. */
export const PROTOTYPE_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  '__defineGetter__',
  'isPrototypeOf',
];

/** A raw object key (with its quotes): real field names, prototype keys, near misses and junk. */
export function rawKey(fields: readonly string[]): fc.Arbitrary<string> {
  const nearMisses = fields.flatMap((f) => [f.toUpperCase(), ` ${f}`, `${f} `, f.replace(/_/g, '-'), `${f}\u0000`]);
  return fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...fields).map(quoted) },
    { weight: 2, arbitrary: fc.constantFrom(...PROTOTYPE_KEYS).map(quoted) },
    { weight: 1, arbitrary: fc.constantFrom(...nearMisses).map(quoted) },
    { weight: 1, arbitrary: fc.string({ maxLength: 8 }).map(quoted) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('"\\ud800"', '""', '"\\u0000"', '"😀"', '"__proto__\\u0000"', '"\\u005f_proto__"'),
    },
  );
}

/** Any raw JSON value up to a small depth, with keys drawn from `fields`. */
export function rawValue(fields: readonly string[] = [], maxDepth = 3): fc.Arbitrary<string> {
  const key = rawKey(fields.length > 0 ? fields : ['a', 'b']);
  const { value } = fc.letrec<{ value: string }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', maxDepth, withCrossShrink: true },
      { weight: 4, arbitrary: rawLiteral },
      { weight: 1, arbitrary: fc.array(tie('value'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`) },
      { weight: 1, arbitrary: rawObjectOf(fc.tuple(key, tie('value')), 4) },
    ),
  }));
  return value;
}

/** `{k:v,...}` from raw entries; keys may repeat. */
export function rawObjectOf(entry: fc.Arbitrary<[string, string]>, maxKeys: number): fc.Arbitrary<string> {
  return fc
    .array(entry, { maxLength: maxKeys })
    .map((entries) => `{${entries.map(([k, v]) => `${k}:${v}`).join(',')}}`);
}

/** A raw object built from the fields of a DTO: each field's value is valid or hostile. */
export function rawFieldsObject(fieldValues: Record<string, fc.Arbitrary<string>>, maxKeys = 5): fc.Arbitrary<string> {
  const fields = Object.keys(fieldValues);
  const hostile = rawValue(fields, 2);
  const entry = fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .constantFrom(...fields)
        .chain((f) =>
          fc.tuple(
            fc.constant(quoted(f)),
            fc.oneof({ weight: 6, arbitrary: fieldValues[f] }, { weight: 1, arbitrary: hostile }),
          ),
        ),
    },
    { weight: 1, arbitrary: fc.tuple(rawKey(fields), hostile) },
  );
  return rawObjectOf(entry, maxKeys);
}

/** A raw object of some of the given fields, each with a value from its (valid) arbitrary. */
export function rawValidObject(fieldValues: Record<string, fc.Arbitrary<string>>, maxKeys = 3): fc.Arbitrary<string> {
  return fc
    .subarray(Object.keys(fieldValues), { maxLength: Math.min(maxKeys, Object.keys(fieldValues).length) })
    .chain((keys) => fc.tuple(...keys.map((k) => fieldValues[k].map((v) => `${quoted(k)}:${v}`))))
    .map((entries) => `{${entries.join(',')}}`);
}

/** Text that is not a JSON object: other top-level values and malformed JSON. */
export const rawNotAnObject: fc.Arbitrary<string> = fc.oneof(
  rawValue([], 2).filter((text) => !text.startsWith('{')),
  fc.constantFrom(
    '',
    ' ',
    '\n',
    '{',
    '}',
    '{"title":',
    '{"title": "x",}',
    "{'title': 'x'}",
    '{title: "x"}',
    '{"title": "x"} trailing',
    '{"title": "x"}{"title": "y"}',
    '\ufeff{}',
    '/* comment */ {}',
    'NaN',
    'Infinity',
    '{"position": NaN}',
    '{"position": 0x10}',
    '{"position": 01}',
    '{"position": +1}',
    '{"position": .5}',
    '{"a": "\\x41"}',
    '{"a": "\\u12"}',
    '{"a": "unterminated}',
    '['.repeat(3000) + ']'.repeat(3000),
    `${'{"icon":'.repeat(40)}{}${'}'.repeat(40)}`,
    'null',
    'true',
    '[]',
    '[{}]',
    '"{}"',
  ),
  fc.string({ unit: 'binary', maxLength: 30 }),
);

/** Wraps a value arbitrary so that it is sometimes null or replaced by something of another type. */
export function orHostile(valid: fc.Arbitrary<string>, weight = 5): fc.Arbitrary<string> {
  return fc.oneof(
    { weight, arbitrary: valid },
    { weight: 1, arbitrary: fc.constant('null') },
    { weight: 1, arbitrary: rawValue([], 2) },
  );
}

// ---- values that the DTOs accept (so that some requests get through and change things) ----

/** Text of min..max code points, and sometimes exactly at or one past the limit (rarely when that is long). */
export const validText = (min: number, max: number): fc.Arbitrary<string> =>
  fc
    .oneof(
      { weight: max > 1000 ? 20 : 4, arbitrary: fc.string({ minLength: min, maxLength: Math.min(max, 30) }) },
      {
        weight: max > 1000 ? 10 : 2,
        arbitrary: fc.string({ unit: 'grapheme', minLength: min, maxLength: Math.min(max, 10) }),
      },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          ...[max, max + 1].map((n) => '😀'.repeat(n)),
          ...[max, max + 1].map((n) => 'x'.repeat(n)),
        ),
      },
    )
    .map(quoted);

export const rawBoolean = fc.constantFrom('true', 'false');

export const IMAGE_TYPES = ['image', 'icon', 'emoji'];

/** An Image (or CoverImage with `cover`); `hostile`: sometimes with a wrong or missing member. */
export function rawImage(cover = false, hostile = true): fc.Arbitrary<string> {
  const maybe = (valid: fc.Arbitrary<string>, weight: number) => (hostile ? orHostile(valid, weight) : valid);
  const fields: Record<string, fc.Arbitrary<string>> = {
    type: maybe(fc.constantFrom(...IMAGE_TYPES, ...(hostile ? ['IMAGE', 'video', ''] : [])).map(quoted), 8),
    src: maybe(fc.oneof(validText(0, 40), fc.constant(quoted('https://example.com/i.png'))), 8),
    id: maybe(validText(0, 255), 6),
    blurhash: maybe(validText(0, 255), 6),
    color: maybe(fc.constantFrom('red', 'blue', '#fff').map(quoted), 6),
    emoji: maybe(fc.constantFrom('😀', 'smile', '\u{1F3F3}\u{FE0F}\u{200D}\u{1F308}').map(quoted), 6),
  };
  if (cover) {
    fields.positionY = maybe(hostile ? rawNumber : fc.integer({ min: -1000, max: 1000 }).map(String), 6);
    fields.object_fit = maybe(
      fc.constantFrom('fill', 'contain', 'cover', 'none', 'scale-down', ...(hostile ? ['stretch'] : [])).map(quoted),
      6,
    );
  }
  const optionalKeys = Object.keys(fields).filter((f) => f !== 'type' && f !== 'src');
  const optional = fc
    .subarray(optionalKeys, { maxLength: 3 })
    .chain((keys) => fc.tuple(...keys.map((k) => fields[k].map((v): [string, string] => [quoted(k), v]))));
  const missing = hostile ? fc.constantFrom('none', 'none', 'none', 'none', 'type', 'src') : fc.constant('none');
  return fc.tuple(fields.type, fields.src, optional, missing).map(([type, src, rest, without]) => {
    const entries: Array<[string, string]> = [
      ...(without === 'type' ? [] : [[quoted('type'), type] as [string, string]]),
      ...(without === 'src' ? [] : [[quoted('src'), src] as [string, string]]),
      ...rest,
    ];
    return `{${entries.map(([k, v]) => `${k}:${v}`).join(',')}}`;
  });
}

// ---- path segments ----

/** Percent-encodes every byte of the UTF-8 form that is not unreserved (lone surrogates become U+FFFD). */
export function encodeSegment(s: string): string {
  return [...Buffer.from(s, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9\-._~]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
}

/** Path segments of every shape, already as they go on the wire. */
export const junkSegment: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 30 }).map(encodeSegment),
  fc.string({ unit: 'binary', maxLength: 12 }).map(encodeSegment),
  fc.stringMatching(/^[A-Za-z0-9_-]{1,70}$/),
  fc.constantFrom(
    '0',
    '00',
    '-1',
    '+1',
    '1.0',
    '1e3',
    '0x10',
    '%20',
    '%2F',
    '%2f1',
    '%00',
    '%',
    '%Z',
    '%ZZ',
    '%E0%A4%A',
    '%C0%AF',
    '%FF',
    '%F0%9F%98%80',
    '..',
    '.',
    '%2E%2E',
    'null',
    'undefined',
    'NaN',
    '__proto__',
    'constructor',
    '1;DROP',
    "1'",
    '1%27--',
    'x'.repeat(2000),
    '9'.repeat(5000),
    '1'.repeat(19),
    '1'.repeat(20),
    '9223372036854775807',
    '9223372036854775808',
    '18446744073709551616',
    '0000000000000000001',
    ':id',
    '*',
    '(.*)',
  ),
);

/** An id path segment: mostly one of `known`, else something of another shape. */
export function idSegment(known: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...known) },
    { weight: 1, arbitrary: fc.constantFrom(...known).map((id) => (/^\d+$/.test(id) ? `000${id}` : id.toUpperCase())) },
    { weight: 3, arbitrary: junkSegment },
  );
}

/** A team segment: mostly the scene's workspace, sometimes the other one's, else junk. */
export const hostileTeam = (s: Scene): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constant(s.ws.teamId) },
    { weight: 1, arbitrary: fc.constant(s.other.teamId) },
    { weight: 2, arbitrary: junkSegment },
  );

/** `/v1/{team}/{resource}/{id}{suffix}` with a hostile team and an id that is mostly one of `known`. */
export const hostilePath = (s: Scene, resource: string, known: readonly string[], suffix = ''): fc.Arbitrary<string> =>
  fc.tuple(hostileTeam(s), idSegment(known)).map(([t, id]) => `/v1/${t}/${resource}/${id}${suffix}`);

/** `/v1/{team}/{resource}/{id}{suffix}` in the scene's workspace, for one of `ids`. */
export const validPath = (s: Scene, resource: string, ids: readonly string[], suffix = ''): fc.Arbitrary<string> =>
  fc.constantFrom(...ids).map((id) => `/v1/${s.ws.teamId}/${resource}/${id}${suffix}`);

// ---- headers ----

/** Characters Node lets a client put in a header value. */
const headerChar = fc
  .oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0x80, max: 0xff }))
  .map((c) => String.fromCharCode(c));
export const headerJunk = fc.string({ unit: headerChar, maxLength: 40 });

export const contentType: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 20, arbitrary: fc.constant('application/json') },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      undefined,
      'application/json; charset=utf-8',
      'application/json;charset=UTF8',
      'application/json; charset="utf-8"',
      'Application/JSON',
      'application/merge-patch+json',
      'application/vnd.api+json',
      'application/json; charset=latin1',
      'application/json; charset=utf-16',
      'application/json; charset=',
      'application/json;;;',
      'application/json; boundary=x',
      'application/jsonx',
      'application/json+evil',
      'application/',
      'json',
      'text/json',
      'text/plain',
      'text/html',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=----x',
      'application/octet-stream',
      '*/*',
      '',
      ';',
    ),
  },
  { weight: 1, arbitrary: headerJunk },
);

export const contentEncoding: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 20, arbitrary: fc.constant(undefined) },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      'gzip',
      'deflate',
      'br',
      'identity',
      'GZIP',
      'x-gzip',
      'gzip, identity',
      'gzip, gzip',
      'compress',
      'zstd',
      'bogus',
      '',
    ),
  },
  { weight: 1, arbitrary: headerJunk },
);

/** Authorization variants around one valid header value (`Bearer <secret>`). */
export function authorization(valid: string, others: readonly string[]): fc.Arbitrary<string | undefined> {
  const secret = valid.slice('Bearer '.length);
  return fc.oneof(
    { weight: 20, arbitrary: fc.constant(valid) },
    { weight: 3, arbitrary: fc.constantFrom(...others) },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        undefined,
        '',
        'Bearer',
        'Bearer ',
        `bearer ${secret}`,
        `BEARER ${secret}`,
        `Bearer  ${secret}`,
        `Bearer ${secret} `,
        `Bearer ${secret}x`,
        `Bearer ${secret.slice(0, -1)}`,
        `Bearer ${secret.toUpperCase()}`,
        `Basic ${Buffer.from(`user:${secret}`).toString('base64')}`,
        `Token ${secret}`,
        secret,
        `Bearer ${secret}, Bearer ${secret}`,
        `Bearer ${'A'.repeat(4000)}`,
        'Bearer null',
        'Bearer undefined',
        "Bearer ' OR 1=1 --",
        'Bearer é',
      ),
    },
    { weight: 1, arbitrary: headerJunk.map((j) => `Bearer ${j}`) },
    { weight: 1, arbitrary: headerJunk },
  );
}

/** Extra headers nobody should care about. */
export const extraHeaders: fc.Arbitrary<Record<string, string>> = fc.dictionary(
  fc.constantFrom(
    'Accept',
    'Accept-Charset',
    'Accept-Encoding',
    'X-Request-Id',
    'X-Forwarded-For',
    'Origin',
    'If-None-Match',
    'Range',
    'X-HTTP-Method-Override',
    'Expect-CT',
    'Cookie',
  ),
  headerJunk,
  { maxKeys: 3 },
);

// ---- conditional headers (writes only) ----

/** Stands for the resource's current ETag in a generated If-Match; the harness puts the real one in before sending. */
export const CURRENT_ETAG = '<current>';

/** If-Match values that match any existing resource: `*`, its current ETag, a list holding it. */
export const MATCHING_IF_MATCH = ['*', CURRENT_ETAG, `"other", ${CURRENT_ETAG}`, `${CURRENT_ETAG},"x"`];

/** If-Match values that match no resource, whatever its ETag: weak tags (strong comparison) and garbage. */
export const NEVER_MATCHING_IF_MATCH = [
  `W/${CURRENT_ETAG}`,
  `W/"x", W/${CURRENT_ETAG}`,
  `${CURRENT_ETAG}${CURRENT_ETAG}`,
  '"stale"',
  'W/"1"',
  '**',
  'W/*',
  'W/',
  '"',
  'unquoted',
  ',',
];

/** If-Match values: ones that match, ones that cannot, and ones that may (a small version number). */
export const ifMatchValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...MATCHING_IF_MATCH) },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      ...NEVER_MATCHING_IF_MATCH,
      '"1"',
      '""',
      '"a", "b"',
      '*, "a"',
      '"*"',
      ' , ',
      `"${'v'.repeat(5000)}"`,
      '"\u00e9t\u00e9"',
      '"caf\u00e9"',
      '"a\tb"',
      Array.from({ length: 200 }, (_, n) => `"${n}"`).join(', '),
    ),
  },
  { weight: 1, arbitrary: headerJunk },
);

const printable = fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c));

/**
 * Idempotency-Key values: fresh valid ones, a few that repeat (replays and 422s), and invalid ones: empty, past 255
 * characters, not ASCII, with a tab inside, blank.
 */
export const idempotencyKeyValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: printable, minLength: 12, maxLength: 40 }) },
  { weight: 2, arbitrary: fc.constantFrom('retry-1', 'retry-2', 'k', ' padded key ', 'x'.repeat(255)) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      '\t',
      'x'.repeat(256),
      'x'.repeat(5000),
      'caf\u00e9',
      '\u00ff',
      '\u00e4'.repeat(10),
      'a\tb',
      'key\u00a0key',
    ),
  },
  { weight: 1, arbitrary: headerJunk },
);

/** What the server sees of a header value: HTTP drops the spaces and tabs around it. */
export const headerAsReceived = (value: string) => value.replace(/^[ \t]+|[ \t]+$/g, '');

/** Whether an Idempotency-Key value is valid as the server receives it: 1 to 255 printable ASCII characters. */
export const isValidKey = (value: string) => /^[\x20-\x7e]{1,255}$/.test(headerAsReceived(value));

/** Absent more often than not, so that writes without the new headers keep being exercised too. */
const sometimes = (value: fc.Arbitrary<string>) =>
  fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 2, arbitrary: value });

const conditionalHeaders = fc.record({
  'If-Match': sometimes(ifMatchValue),
  'Idempotency-Key': sometimes(idempotencyKeyValue),
});

/**
 * Authorization variants around the member of the scene's workspace: its other roles, the other
 * workspace's member, and junk.
 */
export const hostileAuth = (s: Scene): fc.Arbitrary<string | undefined> =>
  authorization(s.ws.auth.member, [
    s.ws.auth.owner,
    s.ws.auth.admin,
    s.ws.auth.guest,
    s.ws.auth.viewer,
    s.ws.auth.oauth,
    s.ws.auth.agent,
    s.other.auth.member,
  ]);

// ---- whole requests ----

export interface RequestParts {
  method: Method;
  /** Paths to existing resources of the caller's workspace, and paths of any shape. */
  path: { valid: fc.Arbitrary<string>; hostile: fc.Arbitrary<string> };
  /** Bodies the route accepts (mostly), and bodies of any shape. */
  body: { valid: fc.Arbitrary<string | undefined>; hostile: fc.Arbitrary<string | undefined> };
  /** Authorization values that may make the request, and Authorization variants of every kind. */
  auth: { valid: readonly string[]; hostile: fc.Arbitrary<string | undefined> };
}

type HeaderSet = Pick<HostileRequest, 'headers' | 'compress'>;

const validHeaders = (auths: readonly string[]): fc.Arbitrary<HeaderSet> =>
  fc
    .record({
      'Content-Type': fc.constantFrom(
        'application/json',
        'application/json',
        'application/json; charset=utf-8',
        'application/merge-patch+json',
      ),
      Authorization: fc.constantFrom(...auths),
      'Content-Encoding': fc.constantFrom(
        undefined,
        undefined,
        undefined,
        undefined,
        'gzip',
        'deflate',
        'br',
        'identity',
      ),
    })
    .map((headers) => ({ headers, compress: true }));

const hostileHeaders = (auth: fc.Arbitrary<string | undefined>): fc.Arbitrary<HeaderSet> =>
  fc
    .record({ type: contentType, auth, encoding: contentEncoding, extra: extraHeaders, compress: fc.boolean() })
    .map(({ type, auth: authz, encoding, extra, compress }) => ({
      headers: { ...extra, 'Content-Type': type, Authorization: authz, 'Content-Encoding': encoding },
      compress,
    }));

/**
 * Requests where the path, the headers, the body, all of them or none are hostile, so that both the
 * refusals and the accepted writes (and what they then read back as) get exercised.
 */
export function hostileRequests(parts: RequestParts): fc.Arbitrary<HostileRequest> {
  const build = (
    path: fc.Arbitrary<string>,
    headers: fc.Arbitrary<HeaderSet>,
    body: fc.Arbitrary<string | undefined>,
    latin1 = false,
  ) =>
    fc.record({ path, headers, body }).map(({ path: p, headers: h, body: b }): HostileRequest => ({
      method: parts.method,
      path: p,
      ...h,
      ...(b === undefined ? {} : { body: b }),
      ...(latin1 ? { latin1 } : {}),
    }));
  const { path, body } = parts;
  // Writes also get If-Match and Idempotency-Key, of every kind; a GET has its own (If-None-Match, in the extras).
  const withConditional = (headers: fc.Arbitrary<HeaderSet>): fc.Arbitrary<HeaderSet> =>
    parts.method === 'get'
      ? headers
      : fc
          .tuple(headers, conditionalHeaders)
          .map(([set, conditional]) => ({ ...set, headers: { ...set.headers, ...conditional } }));
  const okHeaders = withConditional(validHeaders(parts.auth.valid));
  const badHeaders = withConditional(hostileHeaders(parts.auth.hostile));
  return fc.oneof(
    { weight: 3, arbitrary: build(path.valid, okHeaders, body.valid) },
    { weight: 4, arbitrary: build(path.valid, okHeaders, body.hostile) },
    { weight: 1, arbitrary: build(path.hostile, okHeaders, body.valid) },
    { weight: 2, arbitrary: build(path.valid, badHeaders, fc.oneof(body.valid, body.hostile)) },
    { weight: 1, arbitrary: build(path.hostile, badHeaders, body.hostile) },
    { weight: 1, arbitrary: build(path.valid, okHeaders, body.valid, true) },
  );
}
