import type { JsonSchema } from './json-schema.js';

/** Fixed values so the examples of the document are the same on every build. */
const FIXED: Record<string, string> = {
  'date-time': '2026-03-02T09:30:00Z',
  date: '2026-03-02',
  time: '09:30:00',
  email: 'ada@example.com',
  uri: 'https://example.com/articles/launch',
  url: 'https://example.com/articles/launch',
  uuid: '3f1c9a52-8a0e-4c57-9d6b-2a4f1e0c7b11',
  hostname: 'example.com',
};

/** Strings tried, in order, against a `pattern` that no fixed format answers. */
const PATTERN_CANDIDATES = ['example', 'image/png', 'Europe/Berlin', '09:30', 'abc123', 'a', '1', 'A', 'example-1', 'ws/1/2026/03/example.png'];

const isEmpty = (v: unknown) => v === '' || (Array.isArray(v) && v.length === 0) || (v !== null && typeof v === 'object' && Object.keys(v).length === 0);

type Resolve = (schema: JsonSchema) => JsonSchema;

function matches(pattern: string, value: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(value);
  } catch {
    try {
      return new RegExp(pattern).test(value);
    } catch {
      return false;
    }
  }
}

function sampleString(s: JsonSchema, name: string): string | undefined {
  const min = typeof s.minLength === 'number' ? s.minLength : 0;
  const max = typeof s.maxLength === 'number' ? s.maxLength : Infinity;
  const format = typeof s.format === 'string' ? FIXED[s.format] : undefined;
  const hinted = /url$/i.test(name) ? FIXED.url : undefined;
  const fit = (v: string) => (v.length < min ? v.padEnd(min, 'x') : v.slice(0, Math.min(max, v.length)));
  const base = format ?? hinted ?? (name ? `example ${name.replace(/_/g, ' ')}` : 'example');
  const pattern = typeof s.pattern === 'string' ? s.pattern : undefined;
  if (!pattern || matches(pattern, fit(base))) return fit(base);
  return PATTERN_CANDIDATES.map(fit).find((c) => matches(pattern, c));
}

function sampleNumber(s: JsonSchema, integer: boolean): number {
  const lo = typeof s.minimum === 'number' ? s.minimum : typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + (integer ? 1 : 0.5) : undefined;
  const hi = typeof s.maximum === 'number' ? s.maximum : typeof s.exclusiveMaximum === 'number' ? s.exclusiveMaximum - (integer ? 1 : 0.5) : undefined;
  let v = integer ? 1 : 0.5;
  if (lo !== undefined && v < lo) v = lo;
  if (hi !== undefined && v > hi) v = hi;
  return integer ? Math.ceil(v) : v;
}

/**
 * A deterministic example value of a JSON schema: the schema's own example, default, const or first
 * enum value when it has one, otherwise a value built from its type and bounds. `undefined` when no
 * value can be derived (then no example is stated rather than a wrong one).
 */
export function sampleOf(schema: JsonSchema, resolve: Resolve, name = '', depth = 0): unknown {
  const s = resolve(schema);
  if (depth > 8) return undefined;
  if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
  if ('example' in s) return s.example;
  if ('const' in s) return s.const;
  // An empty default ('' or []) says little: a request example shows a filled value instead.
  if ('default' in s && !isEmpty(s.default)) return s.default;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = s[key];
    if (Array.isArray(branches)) {
      const ordered = [...(branches as JsonSchema[])].sort((a, b) => Number(resolve(a).type === 'null') - Number(resolve(b).type === 'null'));
      for (const b of ordered) {
        const v = sampleOf(b, resolve, name, depth + 1);
        if (v !== undefined) return v;
      }
      return undefined;
    }
  }
  if (Array.isArray(s.allOf)) {
    const parts = (s.allOf as JsonSchema[]).map((p) => sampleOf(p, resolve, name, depth + 1));
    return parts.every((p) => p && typeof p === 'object' && !Array.isArray(p)) ? Object.assign({}, ...parts) : parts[0];
  }
  const types = Array.isArray(s.type) ? (s.type as string[]).filter((t) => t !== 'null') : [s.type];
  const type = types[0] ?? (s.properties ? 'object' : s.items ? 'array' : undefined);
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, prop] of Object.entries((s.properties ?? {}) as Record<string, JsonSchema>)) {
        const v = sampleOf(prop, resolve, key, depth + 1);
        if (v !== undefined) out[key] = v;
      }
      const names = s.propertyNames as JsonSchema | undefined;
      const extra = s.additionalProperties;
      if (names && Array.isArray(resolve(names).enum) && extra && typeof extra === 'object') {
        const v = sampleOf(extra as JsonSchema, resolve, '', depth + 1);
        for (const key of resolve(names).enum as string[]) if (v !== undefined) out[key] = v;
      }
      return out;
    }
    case 'array': {
      const item = s.prefixItems ? undefined : sampleOf((s.items ?? {}) as JsonSchema, resolve, name, depth + 1);
      if (s.maxItems === 0 || item === undefined) return [];
      const count = Math.max(1, typeof s.minItems === 'number' ? s.minItems : 1);
      return Array.from({ length: count }, () => item);
    }
    case 'string':
      return sampleString(s, name);
    case 'integer':
      return sampleNumber(s, true);
    case 'number':
      return sampleNumber(s, false);
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return undefined;
  }
}
