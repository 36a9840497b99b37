import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

const COMPONENT_PREFIX = '#/components/schemas/';

/** Rewrites every `$ref: '#/$defs/<id>'` of a JSON value to the components name `rename(id)`. */
function rewriteRefs(value: unknown, rename: (id: string) => string): unknown {
  if (Array.isArray(value)) return value.map((v) => rewriteRefs(v, rename));
  if (!value || typeof value !== 'object') return value;
  const out: JsonSchema = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] = key === '$ref' && typeof v === 'string' && v.startsWith('#/$defs/') ? COMPONENT_PREFIX + rename(v.slice('#/$defs/'.length)) : rewriteRefs(v, rename);
  }
  return out;
}

/**
 * A record keyed by an enum (zod's `z.record(z.enum(...), v)`) as plain properties, one per key: the
 * same constraint, in the form OpenAPI tools read (a `required` list naming declared properties).
 */
function enumKeyedRecordsAsProperties(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(enumKeyedRecordsAsProperties);
  if (!value || typeof value !== 'object') return value;
  const out: JsonSchema = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, enumKeyedRecordsAsProperties(v)]));
  const names = out.propertyNames as JsonSchema | undefined;
  if (out.type === 'object' && !out.properties && Array.isArray(names?.enum) && out.additionalProperties && typeof out.additionalProperties === 'object') {
    const keys = names.enum as string[];
    const { propertyNames: _names, additionalProperties: each, ...rest } = out;
    return { ...rest, properties: Object.fromEntries(keys.map((k) => [k, each])), additionalProperties: false };
  }
  return out;
}

const componentName = (id: string): string => id.replace(/[^A-Za-z0-9._-]/g, '_');

/**
 * Turns zod schemas into OpenAPI 3.1 schemas. Every schema named with `.meta({ id })` becomes one entry
 * of `components/schemas` and is referenced from there (zod alone would point at a `#/$defs` that does
 * not exist at the document's root). When one id has a different shape as input than as output (defaults,
 * transforms), the input shape is named `<id>Input`.
 */
export class ComponentSchemas {
  readonly schemas: Record<string, JsonSchema> = {};

  convert(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    const {
      $schema: _drop,
      $defs,
      ...root
    } = enumKeyedRecordsAsProperties(z.toJSONSchema(schema, { io, unrepresentable: 'any', reused: 'inline' })) as JsonSchema & {
      $defs?: Record<string, JsonSchema>;
    };
    const defs = $defs ?? {};
    const names = new Map<string, string>(Object.keys(defs).map((id) => [id, componentName(id)]));
    const rename = (id: string) => names.get(id) ?? componentName(id);
    // A name already taken by a different shape gets a suffix (decided on the shape with refs rewritten).
    for (const id of Object.keys(defs)) {
      const base = rename(id);
      const existing = this.schemas[base];
      if (existing && !isDeepStrictEqual(existing, rewriteRefs(defs[id], rename))) {
        let name = io === 'input' ? `${base}Input` : `${base}Output`;
        for (let n = 2; this.schemas[name] && !isDeepStrictEqual(this.schemas[name], rewriteRefs(defs[id], rename)); n++) name = `${base}${io === 'input' ? 'Input' : 'Output'}${n}`;
        names.set(id, name);
      }
    }
    for (const [id, def] of Object.entries(defs)) this.schemas[rename(id)] ??= rewriteRefs(def, rename) as JsonSchema;
    return rewriteRefs(root, rename) as JsonSchema;
  }

  /** The schema a `$ref` points at (one level), or the schema itself. */
  resolve(schema: JsonSchema): JsonSchema {
    const ref = schema.$ref;
    if (typeof ref === 'string' && ref.startsWith(COMPONENT_PREFIX)) return this.schemas[ref.slice(COMPONENT_PREFIX.length)] ?? {};
    return schema;
  }
}
