import fc from 'fast-check';
import { randomUUID } from 'node:crypto';

/**
 * Hostile values for the generated fuzz test (`test/e2e/fuzz.test.ts`), by the type the OpenAPI
 * document gives a field. Every value is a `Hostile`: a label naming its class (what a failure report
 * prints, so a 10 000-character string shows as `string:10k-ascii`) and the value itself, which may hold
 * `Raw` JSON text (numbers JSON.stringify cannot write, deep nesting) for the serialiser below.
 */

/** JSON text inserted verbatim by `toJson` (1e999, 2^53+1 exactly, 5 000 nested arrays…). */
export class Raw {
  constructor(readonly text: string) {}
}

export class Hostile {
  constructor(
    readonly kind: string,
    readonly value: unknown,
  ) {}
  /** fast-check prints a counterexample with this: the label, never the 10k characters. */
  [fc.toStringMethod](): string {
    return this.kind;
  }
}

const h = (kind: string, value: unknown) => new Hostile(kind, value);
const pick = (values: Hostile[]) => fc.constantFrom(...values);

/** JSON text of a value holding `Raw` parts; undefined properties are left out, as JSON.stringify does. */
export function toJson(value: unknown): string {
  if (value instanceof Raw) return value.text;
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : toJson(v))).join(',')}]`;
  if (value && typeof value === 'object') {
    const parts = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${JSON.stringify(k)}:${toJson(v)}`);
    return `{${parts.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** `depth` nested arrays or objects as JSON text (built as text: no recursion on either side of the test). */
export const deepArray = (depth: number) => new Raw(`${'['.repeat(depth)}1${']'.repeat(depth)}`);
export const deepObject = (depth: number) => new Raw(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);

const LONG = 10_000;

/** Strings that break storage, encodings, parsers or limits. */
export const STRING_VALUES: Hostile[] = [
  h('string:NUL', '\u0000'),
  h('string:embedded-NUL', 'a\u0000b'),
  h('string:lone-high-surrogate', '\ud800'),
  h('string:lone-low-surrogate', 'x\udfffy'),
  h('string:reversed-surrogates', '\udc00\ud800'),
  h('string:10k-ascii', 'x'.repeat(LONG)),
  h('string:10k-astral-unicode', '😀'.repeat(LONG / 2)),
  h('string:long-combining-unicode', `e${'\u0301'.repeat(LONG)}`),
  h('string:100k-ascii', 'y'.repeat(100_000)),
  h('string:sql-quote', "' OR '1'='1' --"),
  h('string:sql-drop', "x'); DROP TABLE issues; --"),
  h('string:sql-backslash', '\\\\\'\\"%_'),
  h('string:like-wildcards', '%_%\\'),
  h('string:html', '<script>alert(1)</script><img src=x onerror=alert(1)>'),
  h('string:template', '${7*7}{{7*7}}%s%n%x'),
  h('string:empty', ''),
  h('string:spaces', '   '),
  h('string:whitespace-controls', '\t\n\r\u000b\u000c'),
  h('string:unicode-spaces', '\u00a0\u2028\u2029\ufeff\u200b'),
  h('string:rtl-override', '\u202eevil\u202c'),
  h('string:control-chars', '\u0001\u0002\u001b[31m\u007f'),
  h('string:path-traversal', '../../../../etc/passwd'),
  h('string:number-like', '1e309'),
  h('string:null-word', 'null'),
  h('string:proto', '__proto__'),
  h('string:non-char', '\uffff\ufffe'),
];

/** Values of other JSON types where a string is expected. */
export const NON_STRING_VALUES: Hostile[] = [
  h('wrong-type:null', null),
  h('wrong-type:zero', 0),
  h('wrong-type:negative', -1),
  h('wrong-type:float', 1.5),
  h('wrong-type:huge-number', 1e308),
  h('wrong-type:true', true),
  h('wrong-type:false', false),
  h('wrong-type:empty-object', {}),
  h('wrong-type:object', { a: 'b' }),
  h('wrong-type:empty-array', []),
  h('wrong-type:array-of-strings', ['a', 'b']),
  h('wrong-type:proto-object', new Raw('{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}')),
];

/** Numbers at and past every edge, and numbers in shapes JSON.parse or the database dislikes. */
export const NUMBER_VALUES: Hostile[] = [
  h('number:1e308', 1e308),
  h('number:-1e308', -1e308),
  h('number:max-value', Number.MAX_VALUE),
  h('number:min-value', Number.MIN_VALUE),
  h('number:negative-zero', new Raw('-0')),
  h('number:2^53+1', new Raw('9007199254740993')),
  h('number:-2^53-1', new Raw('-9007199254740993')),
  h('number:2^31', 2 ** 31),
  h('number:-2^31-1', -(2 ** 31) - 1),
  h('number:2^63', new Raw('9223372036854775808')),
  h('number:30-digits', new Raw('123456789012345678901234567890')),
  h('number:float-for-int', 1.5),
  h('number:tiny-float', 0.000001),
  h('number:negative-float', -0.5),
  h('number:huge-exponent', new Raw('1e999')),
  h('number:negative-huge-exponent', new Raw('-1e999')),
  h('number:tiny-exponent', new Raw('1e-999')),
  h('number:exponent-int', new Raw('1E2')),
  h('number:negative', -1),
  h('number:zero', 0),
  h('number:string-NaN', 'NaN'),
  h('number:string-Infinity', 'Infinity'),
  h('number:string--Infinity', '-Infinity'),
  h('number:string-hex', '0x10'),
  h('number:string-padded', ' 1 '),
  h('number:string-1e308', '1e308'),
  h('number:string-int', '5'),
  h('number:string-empty', ''),
];

const RANDOM_UUID = randomUUID();
/** Ids that are not ids, and ids of nothing. */
export const UUID_VALUES: Hostile[] = [
  h('uuid:not-a-uuid', 'not-a-uuid'),
  h('uuid:too-short', '00000000-0000-0000-0000-00000000000'),
  h('uuid:too-long', '00000000-0000-0000-0000-0000000000000'),
  h('uuid:non-hex', 'gggggggg-gggg-gggg-gggg-gggggggggggg'),
  h('uuid:no-dashes', RANDOM_UUID.replace(/-/g, '')),
  h('uuid:braces', `{${RANDOM_UUID}}`),
  h('uuid:uppercase', RANDOM_UUID.toUpperCase()),
  h('uuid:trailing-space', `${RANDOM_UUID} `),
  h('uuid:trailing-NUL', `${RANDOM_UUID}\u0000`),
  h('uuid:nil', '00000000-0000-0000-0000-000000000000'),
  h('uuid:max', 'ffffffff-ffff-ffff-ffff-ffffffffffff'),
  h('uuid:sql', `${RANDOM_UUID}' OR '1'='1`),
  h('uuid:integer', '12345'),
];

export const BOOLEAN_VALUES: Hostile[] = [
  h('boolean:string-true', 'true'),
  h('boolean:string-false', 'false'),
  h('boolean:one', 1),
  h('boolean:zero', 0),
  h('boolean:string-yes', 'yes'),
  h('boolean:empty-string', ''),
];

export const DATE_VALUES: Hostile[] = [
  h('date:feb-30', '2026-02-30'),
  h('date:month-13', '2026-13-01'),
  h('date:zeros', '0000-00-00'),
  h('date:year-0', '0000-01-01'),
  h('date:year-9999', '9999-12-31'),
  h('date:year-275760', '+275760-09-13'),
  h('date:negative-year', '-000001-01-01'),
  h('date:hour-25', '2026-01-01T25:00:00Z'),
  h('date:bad-offset', '2026-01-01T00:00:00+99:99'),
  h('date:huge-fraction', `2026-01-01T00:00:00.${'9'.repeat(50)}Z`),
  h('date:epoch-int', 1767225600),
  h('date:unpadded', '2026-1-1'),
  h('date:word', 'tomorrow'),
  h('date:infinity', 'infinity'),
];

export const ENUM_VALUES: Hostile[] = [
  h('enum:unknown-string', 'definitely-not-a-member'),
  h('enum:uppercase', 'URGENT'),
  h('enum:out-of-range-number', 999),
  h('enum:negative-number', -999),
  h('enum:float', 5.5),
];

export const EMAIL_VALUES: Hostile[] = [
  h('email:no-at', 'plainaddress'),
  h('email:unicode', 'ü@ß.example'),
  h('email:long-local', `${'a'.repeat(300)}@example.com`),
  h('email:many-ats', 'a@b@c@example.com'),
  h('email:quoted', '"a b"@example.com'),
  h('email:NUL', 'a\u0000@example.com'),
];

export const URL_VALUES: Hostile[] = [
  h('url:javascript', 'javascript:alert(1)'),
  h('url:file', 'file:///etc/passwd'),
  h('url:metadata', 'http://169.254.169.254/latest/meta-data/'),
  h('url:no-host', 'http://'),
  h('url:long', `https://example.com/${'a'.repeat(LONG)}`),
  h('url:unicode-host', 'https://ex\u0000ample.com'),
];

const OVER_BODY_LIMIT_ARRAY = new Raw(`[${Array(600_000).fill('1').join(',')}]`);
const arrayCache = new Map<string, Hostile[]>();

/** Arrays too long, too deep, or holding the wrong things (`item` is a valid element when one is known). */
export function arrayValues(item: unknown): Hostile[] {
  const key = toJson(item ?? 'x');
  let values = arrayCache.get(key);
  if (!values) {
    values = [
      h('array:20k-items', new Raw(`[${Array(20_000).fill(key).join(',')}]`)),
      h('array:600k-items-over-body-limit', OVER_BODY_LIMIT_ARRAY),
      h('array:nested-arrays', [[item], [[item]]]),
      h('array:depth-2000', deepArray(2000)),
      h('array:wrong-item-types', [1, null, true, {}, [], 1.5]),
      h('array:null-items', [null, null]),
      h('array:hostile-strings', ['\u0000', '\ud800', '', 'x'.repeat(LONG)]),
      h('array:malformed-uuids', ['not-a-uuid', '00000000-0000-0000-0000-000000000000']),
      h('array:duplicates', [item ?? 'x', item ?? 'x', item ?? 'x']),
      h('array:empty', []),
    ];
    arrayCache.set(key, values);
  }
  return values;
}

export const OBJECT_VALUES: Hostile[] = [
  h('object:depth-1000', deepObject(1000)),
  h('object:depth-5000', deepObject(5000)),
  h('object:depth-1000-arrays', deepArray(1000)),
  h('object:10k-keys', Object.fromEntries(Array.from({ length: LONG }, (_, i) => [`k${i}`, i]))),
  h('object:proto-keys', new Raw('{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"polluted":1}}}')),
  h('object:hostile-values', { a: '\u0000', b: '\ud800', c: new Raw('1e999') }),
  h('object:hostile-keys', new Raw('{"\\u0000":1,"\\ud800":2,"":3}')),
];

/** Random strings over the whole of Unicode, control characters included, with and without lone surrogates. */
const randomStrings = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 64 }).map((s) => h('string:random-unicode', s)),
  fc
    .tuple(fc.string({ unit: 'binary-ascii', maxLength: 16 }), fc.integer({ min: 0xd800, max: 0xdfff }))
    .map(([s, c]) => h('string:random-with-lone-surrogate', s + String.fromCharCode(c) + s)),
);

const randomNumbers = fc.oneof(
  fc
    .double()
    .map((n) => h('number:random-double', Number.isFinite(n) ? n : new Raw(n > 0 ? '1e999' : n < 0 ? '-1e999' : '0'))),
  fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map((n) => h('number:random-big-integer', new Raw(n.toString()))),
);

/** A mix of everything, for fields whose type the document leaves open (`{}`: read-only fields Plane ignores). */
export const ANY_VALUES = [
  ...STRING_VALUES,
  ...NON_STRING_VALUES,
  ...NUMBER_VALUES.slice(0, 12),
  ...OBJECT_VALUES.slice(0, 2),
];

/** The (simplified) type of one field, from the document. */
export interface FieldType {
  type:
    | 'string'
    | 'uuid'
    | 'date'
    | 'email'
    | 'url'
    | 'enum'
    | 'integer'
    | 'number'
    | 'boolean'
    | 'array'
    | 'object'
    | 'any';
  /** a valid value, when the field has one (`fixtureValue` or the schema's example) */
  valid?: unknown;
  /** same-typed ids of other things (a state's id where a label's is expected) */
  foreignIds?: string[];
}

/** The arbitrary of hostile values for a field of `type`. */
export function hostileFor(type: FieldType): fc.Arbitrary<Hostile> {
  const common = [pick(STRING_VALUES), pick(NON_STRING_VALUES)];
  const foreign = fc.oneof(
    fc.uuid().map((u) => h('uuid:foreign-random', u)),
    ...(type.foreignIds?.length
      ? [fc.constantFrom(...type.foreignIds).map((u) => h('uuid:id-of-another-kind', u))]
      : []),
  );
  switch (type.type) {
    case 'uuid':
      return fc.oneof(
        { arbitrary: pick(UUID_VALUES), weight: 3 },
        { arbitrary: foreign, weight: 2 },
        ...common.map((arbitrary) => ({ arbitrary, weight: 1 })),
      );
    case 'date':
      return fc.oneof(
        { arbitrary: pick(DATE_VALUES), weight: 3 },
        ...common.map((arbitrary) => ({ arbitrary, weight: 1 })),
      );
    case 'email':
      return fc.oneof(
        { arbitrary: pick(EMAIL_VALUES), weight: 2 },
        ...common.map((arbitrary) => ({ arbitrary, weight: 1 })),
      );
    case 'url':
      return fc.oneof(
        { arbitrary: pick(URL_VALUES), weight: 2 },
        ...common.map((arbitrary) => ({ arbitrary, weight: 1 })),
      );
    case 'enum':
      return fc.oneof(
        { arbitrary: pick(ENUM_VALUES), weight: 2 },
        ...common.map((arbitrary) => ({ arbitrary, weight: 1 })),
        pick(NUMBER_VALUES),
      );
    case 'integer':
    case 'number':
      return fc.oneof(
        { arbitrary: pick(NUMBER_VALUES), weight: 4 },
        { arbitrary: randomNumbers, weight: 1 },
        { arbitrary: pick(NON_STRING_VALUES.filter((v) => typeof v.value !== 'number')), weight: 1 },
        { arbitrary: pick(STRING_VALUES), weight: 1 },
      );
    case 'boolean':
      return fc.oneof(pick(BOOLEAN_VALUES), ...common);
    case 'array':
      return fc.oneof(
        { arbitrary: pick(arrayValues(type.valid)), weight: 3 },
        { arbitrary: pick(OBJECT_VALUES), weight: 1 },
        ...common.map((arbitrary) => ({ arbitrary, weight: 1 })),
      );
    case 'object':
      return fc.oneof(
        { arbitrary: pick(OBJECT_VALUES), weight: 3 },
        { arbitrary: pick(arrayValues(undefined)), weight: 1 },
        ...common.map((arbitrary) => ({ arbitrary, weight: 1 })),
      );
    case 'any':
      return fc.oneof(pick(ANY_VALUES), randomStrings);
    case 'string':
    default:
      return fc.oneof(
        { arbitrary: pick(STRING_VALUES), weight: 4 },
        { arbitrary: randomStrings, weight: 1 },
        { arbitrary: pick(NON_STRING_VALUES), weight: 2 },
        { arbitrary: pick(NUMBER_VALUES.slice(0, 6)), weight: 1 },
      );
  }
}

/** Whole request bodies: not an object, malformed, too deep, too big. */
export const WHOLE_BODY_VALUES: Hostile[] = [
  h('body:null', null),
  h('body:string', 'just a string'),
  h('body:number', 42),
  h('body:huge-exponent', new Raw('1e999')),
  h('body:true', true),
  h('body:empty-array', []),
  h('body:array-of-objects', [{}, {}]),
  h('body:empty-object', {}),
  h('body:object-depth-1000', deepObject(1000)),
  h('body:object-depth-10000', deepObject(10_000)),
  h('body:array-depth-10000', deepArray(10_000)),
  h('body:20k-element-array', new Raw(`[${Array(20_000).fill('{}').join(',')}]`)),
  h('body:over-body-limit', { a: 'x'.repeat(1_100_000) }),
  h('body:proto-pollution', new Raw('{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"polluted":1}}}')),
  h('body:malformed-json', new Raw('{"name": "x",')),
  h('body:trailing-garbage', new Raw('{} {}')),
  h('body:duplicate-keys', new Raw('{"name":"a","name":{"x":1}}')),
  h('body:single-quotes', new Raw("{'name': 'x'}")),
  h('body:NUL-in-text', new Raw('{"name":"a\u0000"}')),
  h('body:escaped-lone-surrogate-key', new Raw('{"\\ud800":"\\udc00"}')),
  h('body:invalid-utf8-bytes', Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc0, 0x80, 0x22, 0x7d])),
  h('body:bom', new Raw('\ufeff{}')),
];

/**
 * Values in the grammar of the query parameters handlers parse themselves: comma-separated filters,
 * `None`, dates with `;after`/`;before`, `-`-prefixed orderings, view names, counts.
 */
export const QUERY_GRAMMAR_VALUES: Hostile[] = [
  h('query:only-commas', ',,,'),
  h('query:spaces-and-commas', ' , '),
  h('query:none', 'None'),
  h('query:null', 'null'),
  h('query:none-and-junk', 'None,x'),
  h('query:minus', '-'),
  h('query:double-minus', '--created_at'),
  h('query:order-unknown-key', '-definitely_not_a_column'),
  h('query:order-sql', 'created_at; DROP TABLE issues'),
  h('query:order-relation', 'state__group'),
  h('query:order-other-keys', '-priority'),
  h('query:order-sequence', 'sequence_id'),
  h('query:order-sort', '-sort_order'),
  h('query:date-feb-30-after', '2026-02-30;after'),
  h('query:date-month-13-before', '2026-13-01;before'),
  h('query:date-year-0-after', '0000-01-01;after'),
  h('query:date-year-9999-before', '9999-12-31;before'),
  h('query:date-unknown-op', '2026-01-01;around'),
  h('query:date-many', Array(200).fill('2026-01-01;after').join(',')),
  h('query:view-names', 'current'),
  h('query:view-draft', 'draft'),
  h('query:view-upper', 'ALL'),
  h('query:count-zero', '0'),
  h('query:count-negative', '-1'),
  h('query:count-huge', '99999999999999999999'),
  h('query:count-exponent', '1e3'),
  h('query:bool-upper', 'TRUE'),
  h('query:many-commas', ','.repeat(5000)),
  h('query:priority-list', 'urgent,high,none,nope'),
  h('query:group-list', 'backlog,started,triage,nope'),
];

/** Path segments: as strings (percent-encoded), and raw (inserted as they are). */
export const PATH_RAW_SEGMENTS: Hostile[] = [
  h('path:lone-percent', '%'),
  h('path:bad-escape', '%zz'),
  h('path:encoded-NUL', '%00'),
  h('path:encoded-lone-surrogate', '%ED%A0%80'),
  h('path:overlong-utf8', '%C0%AF'),
  h('path:invalid-utf8', '%FF%FE'),
  h('path:encoded-slash', 'a%2Fb'),
  h('path:dot-dot-encoded', '%2e%2e'),
  h('path:semicolon-params', 'x;a=1'),
  h('path:10k-chars', 'a'.repeat(10_000)),
];

/** Percent-encodes a string for a URL, lone surrogates included (as their UTF-8-like bytes, which decode to nothing valid). */
export function encodeComponent(value: string): string {
  let out = '';
  for (const ch of value) {
    try {
      out += encodeURIComponent(ch);
    } catch {
      const c = ch.charCodeAt(0);
      out += [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join('');
    }
  }
  return out;
}

/** The text a hostile value takes in a URL (path or query): strings as they are, the rest as JSON. */
export function urlText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value instanceof Raw) return value.text;
  return toJson(value);
}

/** Header values (latin-1 only: fetch refuses the rest) for credentials. */
export const CREDENTIAL_VALUES: Hostile[] = [
  h('credential:empty', ''),
  h('credential:long', 'k'.repeat(10_000)),
  h('credential:sql', "' OR '1'='1"),
  h('credential:latin1', 'ÿþ\u00a0'),
  h('credential:prefix-only', 'plane_api_'),
  h('credential:jwt-none', 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.'),
  h('credential:spaces', '   '),
];
