/** Values a careless or hostile client sends, for the fuzz tests. */

const LONG = 'a'.repeat(20_000);

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
];

/** Deep nesting, for JSON parsers and validators that recurse. */
export const deeplyNested = (depth: number): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
};

/** Paths of every field of a JSON example (objects and the first array item), to depth `max`. */
export function fieldPaths(value: unknown, max = 3, prefix: Array<string | number> = []): Array<Array<string | number>> {
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
