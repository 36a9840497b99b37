/** Values a careless or hostile client sends, for the fuzz tests. */

const LONG = 'a'.repeat(20_000);

/** Every C0 control character no text may hold (tab, line feed and carriage return are allowed), and neighbours that are allowed. */
export const CONTROL_TEXTS: string[] = [
  ...Array.from({ length: 32 }, (_, c) => c)
    .filter((c) => c !== 0x09 && c !== 0x0a && c !== 0x0d)
    .map((c) => `text${String.fromCharCode(c)}end`),
  '\u0000',
  'tab\there\r\nline',
  'del\u007f',
  'next line\u0085',
  'separators\u2028\u2029',
  '\ufeffbom',
];

/** The edges of the integer widths a value travels in (int32, uint32, int64, a JSON number's 2^53). */
export const INTEGER_EDGES: number[] = [
  2 ** 31 - 1,
  2 ** 31,
  -(2 ** 31),
  -(2 ** 31) - 1,
  2 ** 32 - 1,
  2 ** 32,
  -(2 ** 32),
  Number.MAX_SAFE_INTEGER,
  Number.MAX_SAFE_INTEGER + 1,
  -Number.MAX_SAFE_INTEGER,
  2 ** 53 + 2,
  2 ** 63,
  -(2 ** 63),
  2 ** 64,
  -0,
  1e-7,
];

/** Arrays far larger than any field takes. */
export const HUGE_ARRAYS: unknown[] = [
  Array.from({ length: 10_000 }, () => 'x'),
  Array.from({ length: 50_000 }, (_, i) => i),
  Array.from({ length: 5_000 }, () => ({})),
  Array.from({ length: 2_000 }, () => [1, [2, [3]]]),
];

/** JSON values put in place of a body field (or of the whole body). */
export const HOSTILE_JSON: unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 63),
  1e308,
  '',
  ' ',
  'not a number',
  '2147483648',
  LONG,
  '\u0000\u0001\u001f',
  '\ud800',
  '😀'.repeat(1000),
  '../../../etc/passwd',
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  '2026-13-45T99:99:99Z',
  [],
  [null],
  Array.from({ length: 1000 }, (_, i) => i),
  {},
  { $gt: '' },
  { $where: 'sleep(1000)' },
  { $ne: null },
  JSON.parse('{"__proto__":{"polluted":true}}'),
  JSON.parse('{"constructor":{"prototype":{"polluted":true}}}'),
  ...CONTROL_TEXTS,
  ...INTEGER_EDGES,
  ...HUGE_ARRAYS,
];

/** Raw strings for query parameters. */
export const HOSTILE_QUERY: Array<string | string[]> = [
  '',
  '-1',
  '0',
  '1.5',
  '1e400',
  'NaN',
  'Infinity',
  '0x10',
  '2147483648',
  '2147483647',
  '-2147483649',
  '9007199254740992',
  '9007199254740993',
  '99999999999999999999999',
  'true',
  '{"$gt":""}',
  '[$gt]=',
  '%00',
  '\u0000',
  LONG.slice(0, 8000),
  '😀',
  ['1', '2'],
  ['a', 'b', 'c'],
  '%01',
  '\u001f',
  'a\u0007b',
  '%7F',
  '4294967296',
  '-2147483648',
  '9223372036854775808',
  '-9007199254740992',
];

/** Raw path segments (already URL-encoded where needed) in place of a path parameter. */
export const HOSTILE_PATH: string[] = [
  'abc',
  '1.5',
  '-1',
  '0',
  '1e3',
  '0x10',
  '2147483648',
  '9007199254740992',
  '9007199254740993',
  '99999999999999999999999',
  '%00',
  '%2e%2e',
  '..%2F..%2Fetc%2Fpasswd',
  '%7B%22%24gt%22%3A%22%22%7D',
  'null',
  'undefined',
  '%F0%9F%98%80',
  '%ZZ',
  'a'.repeat(4000),
  '%01',
  '%1F',
  '2147483647',
  '4294967296',
  '-2147483648',
];

/** A JSON text sent as it is: one no value of this process could be serialized to (too deep for JSON.stringify). */
export class RawJson {
  constructor(
    readonly text: string,
    readonly label: string,
  ) {}

  toJSON(): string {
    return `<${this.label}>`;
  }
}

/** Deep nesting, for JSON parsers and validators that recurse: `{"a":{"a":…1…}}`, `depth` levels. */
export const deeplyNested = (depth: number): RawJson => new RawJson(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`, `${depth} nested objects`);

/** Paths of every field of a JSON example (objects and the first array item), to depth `max`. */
export function fieldPaths(value: unknown, max = 5, prefix: Array<string | number> = []): Array<Array<string | number>> {
  if (prefix.length >= max || value === null || typeof value !== 'object') return [];
  if (Array.isArray(value)) return value.length ? [[...prefix, 0], ...fieldPaths(value[0], max, [...prefix, 0])] : [];
  return Object.entries(value).flatMap(([k, v]) => [[...prefix, k], ...fieldPaths(v, max, [...prefix, k])]);
}

/** A copy of `value` with the field at `path` replaced. */
export function withField(value: unknown, path: Array<string | number>, replacement: unknown): unknown {
  if (!path.length) return replacement;
  const copy = (Array.isArray(value) ? [...(value as unknown[])] : { ...(value as object) }) as Record<string | number, unknown>;
  const [head, ...rest] = path as [string | number, ...Array<string | number>];
  copy[head] = withField(copy[head], rest, replacement);
  return copy;
}
