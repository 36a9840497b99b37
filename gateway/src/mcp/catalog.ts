import type { JsonSchema } from '../openapi/json-schema.js';
import type { Route } from '../routes/route.js';
import { toolHintsOf, toolNameOf, type ToolHints } from './tool-names.js';

/** One tool of the MCP endpoint: an operation of the REST API, described as the OpenAPI document describes it. */
export interface CatalogTool {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema & { type: 'object' };
  outputSchema?: JsonSchema & { type: 'object' };
  annotations: ToolHints & { title: string };
  route: Route;
  /** Names of the arguments that go into the path and into the query string; `body` is the JSON body. */
  pathParams: readonly string[];
  queryParams: readonly string[];
}

interface OpenApiParameter {
  name: string;
  in: string;
  required?: boolean;
  schema: JsonSchema;
}

interface OpenApiOperation {
  summary: string;
  description?: string;
  parameters?: OpenApiParameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { content?: Record<string, { schema: JsonSchema }> }>;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, JsonSchema> };
}

const COMPONENTS = '#/components/schemas/';
const DEFS = '#/$defs/';

/** The schema with every components reference pointing into its own `$defs`, and the names it references. */
function localize(schema: unknown, names: Set<string>): unknown {
  if (Array.isArray(schema)) return schema.map((s) => localize(s, names));
  if (!schema || typeof schema !== 'object') return schema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$ref' && typeof value === 'string' && value.startsWith(COMPONENTS)) {
      names.add(value.slice(COMPONENTS.length));
      out[key] = DEFS + value.slice(COMPONENTS.length);
    } else out[key] = localize(value, names);
  }
  return out;
}

/**
 * A self-contained JSON Schema (draft 2020-12, which OpenAPI 3.1 schemas are) made of the document's own
 * schemas: the named schemas it uses, transitively, under `$defs`.
 */
export function selfContained(schema: JsonSchema, components: Record<string, JsonSchema>): JsonSchema {
  const names = new Set<string>();
  const root = localize(schema, names) as JsonSchema;
  const defs: Record<string, JsonSchema> = {};
  for (const name of names) {
    if (defs[name]) continue;
    const component = components[name];
    if (!component) throw new Error(`the OpenAPI document has no schema ${name}`);
    defs[name] = localize(component, names) as JsonSchema;
  }
  return Object.keys(defs).length ? { ...root, $defs: defs } : root;
}

/** An object schema at the root (MCP asks for one): a root reference is replaced by the schema it names. */
function objectRooted(schema: JsonSchema): (JsonSchema & { type: 'object' }) | undefined {
  const ref = schema.$ref;
  const defs = (schema.$defs ?? {}) as Record<string, JsonSchema>;
  const root = typeof ref === 'string' && ref.startsWith(DEFS) ? { ...defs[ref.slice(DEFS.length)], $defs: defs } : schema;
  return root.type === 'object' ? (root as JsonSchema & { type: 'object' }) : undefined;
}

/** The tool's arguments: the operation's path and query parameters by name, and its JSON body as `body`. */
function inputSchemaOf(op: OpenApiOperation, components: Record<string, JsonSchema>): { schema: JsonSchema & { type: 'object' }; path: string[]; query: string[] } {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const path: string[] = [];
  const query: string[] = [];
  for (const p of op.parameters ?? []) {
    if (p.in !== 'path' && p.in !== 'query') continue;
    if (p.name in properties || p.name === 'body') throw new Error(`parameter ${p.name} is named twice`);
    properties[p.name] = p.schema;
    if (p.required) required.push(p.name);
    (p.in === 'path' ? path : query).push(p.name);
  }
  const body = op.requestBody?.content['application/json']?.schema;
  if (body) {
    properties.body = body;
    if (op.requestBody?.required) required.push('body');
  }
  const schema = selfContained({ type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false }, components);
  return { schema: schema as JsonSchema & { type: 'object' }, path, query };
}

/** The schema of the operation's success answer, when it is an object. */
function outputSchemaOf(route: Route, op: OpenApiOperation, components: Record<string, JsonSchema>): (JsonSchema & { type: 'object' }) | undefined {
  const schema = op.responses[String(route.status)]?.content?.['application/json']?.schema;
  if (!schema || Object.keys(schema).length === 0) return undefined;
  return objectRooted(selfContained(schema, components));
}

/** The routes an API key can call: every one of them is a tool (dashboard-only and Site Push routes are not). */
export const toolRoutes = (routes: readonly Route[]): Route[] => routes.filter((r) => r.audience === 'api_key');

/** One tool per API-key operation of the document, in the route table's order. */
export function buildCatalog(routes: readonly Route[], document: OpenApiDocument): CatalogTool[] {
  const components = document.components.schemas;
  const seen = new Set<string>();
  return toolRoutes(routes).map((route) => {
    const op = document.paths[route.path]?.[route.method];
    if (!op) throw new Error(`the OpenAPI document has no ${route.method.toUpperCase()} ${route.path}`);
    const name = toolNameOf(route);
    if (seen.has(name)) throw new Error(`two operations would be the tool ${name}`);
    seen.add(name);
    const input = inputSchemaOf(op, components);
    const outputSchema = outputSchemaOf(route, op, components);
    return {
      name,
      title: op.summary,
      description: [`${op.summary}. REST: ${route.method.toUpperCase()} /api/v1${route.path}.`, op.description].filter(Boolean).join('\n\n'),
      inputSchema: input.schema,
      ...(outputSchema ? { outputSchema } : {}),
      annotations: { title: op.summary, ...toolHintsOf(route) },
      route,
      pathParams: input.path,
      queryParams: input.query,
    };
  });
}
