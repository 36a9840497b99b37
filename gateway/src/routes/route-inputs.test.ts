import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PROTO_INT_RANGES } from './schemas.js';
import { ROUTES } from './table.js';

type Json = Record<string, unknown>;

/** Every integer of a JSON schema, with where it is (`post.post_contents[].position`, `$defs.Name.field`). */
function integersOf(schema: unknown, where: string, out: Array<{ where: string; schema: Json }> = []): Array<{ where: string; schema: Json }> {
  if (Array.isArray(schema)) schema.forEach((s) => integersOf(s, where, out));
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return out;
  const s = schema as Json;
  if ((Array.isArray(s.type) ? s.type : [s.type]).includes('integer')) out.push({ where, schema: s });
  for (const [key, value] of Object.entries(s)) {
    if (!value || typeof value !== 'object') continue;
    if (key === 'properties' || key === '$defs') for (const [name, v] of Object.entries(value as Json)) integersOf(v, key === '$defs' ? `$defs.${name}` : `${where}.${name}`, out);
    else integersOf(value, key === 'items' ? `${where}[]` : where, out);
  }
  return out;
}

/** Why an integer input is not bounded to the proto field it travels in; undefined when it is. */
function unbounded(s: Json): string | undefined {
  const format = s.format as keyof typeof PROTO_INT_RANGES | undefined;
  const range = format && PROTO_INT_RANGES[format];
  if (!range) return `states no proto width (format int32, uint32 or int64; got ${String(format)})`;
  const [low, high] = range;
  const min = typeof s.minimum === 'number' ? s.minimum : typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + 1 : undefined;
  const max = typeof s.maximum === 'number' ? s.maximum : typeof s.exclusiveMaximum === 'number' ? s.exclusiveMaximum - 1 : undefined;
  if (min === undefined || max === undefined) return 'has no minimum or no maximum';
  if (min < low || max > high) return `allows ${min}..${max}, wider than ${format} (${low}..${high})`;
  return undefined;
}

describe('integers the routes accept', () => {
  it('every integer in every route’s path, query and body is bounded within the proto type it is sent in', () => {
    const problems: string[] = [];
    let seen = 0;
    for (const route of ROUTES) {
      for (const part of ['params', 'query', 'body'] as const) {
        const schema = route[part];
        if (!schema) continue;
        const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', reused: 'inline' });
        for (const { where, schema: int } of integersOf(json, part)) {
          seen++;
          const why = unbounded(int);
          if (why) problems.push(`${route.method.toUpperCase()} ${route.path} ${where}: ${why}`);
        }
      }
    }
    expect(seen).toBeGreaterThan(30);
    expect(problems).toEqual([]);
  });

  it('the check itself catches a bare integer, one wider than its type, and one without a maximum', () => {
    expect(unbounded(z.toJSONSchema(z.number().int()) as Json)).toMatch(/no proto width/);
    expect(unbounded({ type: 'integer', format: 'int32', minimum: 0, maximum: 2 ** 31 })).toMatch(/wider than int32/);
    expect(unbounded({ type: 'integer', format: 'uint32', minimum: -1, maximum: 5 })).toMatch(/wider than uint32/);
    expect(unbounded({ type: 'integer', format: 'int64', minimum: 1 })).toMatch(/no maximum/);
    expect(unbounded({ type: 'integer', format: 'int32', exclusiveMinimum: 0, maximum: 14 })).toBeUndefined();
  });
});
