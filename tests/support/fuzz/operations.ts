/** The operations of an OpenAPI document as the fuzz tests drive them. */

export type Json = Record<string, unknown>;

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema?: Json;
  example?: unknown;
}

export interface Operation {
  /** Server prefix of the operation (`/api/v1`, or `` for the media relay). */
  server: string;
  path: string;
  method: string;
  operationId: string;
  parameters: Parameter[];
  /** Media type and example of the request body, when it has one. */
  body?: { type: string; example: unknown };
  /** True when no token can reach it (dashboard-only) or it takes none (the media relay). */
  security: boolean;
  /** Requests one token may send in a window, when the operation has a rate-limit bucket of its own. */
  bucketPoints?: number;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head'];

/** The per-token bucket an operation's description states (`Rate limit: 10 per 60 s per token`). */
function bucketOf(description: unknown): { bucketPoints?: number } {
  const points = typeof description === 'string' ? /Rate limit: (\d+) per \d+ s per token/.exec(description)?.[1] : undefined;
  return points ? { bucketPoints: Number(points) } : {};
}

export function operationsOf(doc: Json): Operation[] {
  const paths = doc.paths as Record<string, Record<string, Json>>;
  const rootServer = ((doc.servers as Array<{ url: string }> | undefined)?.[0]?.url ?? '').replace(/\/$/, '');
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(paths)) {
    const server = ((item.servers as Array<{ url: string }> | undefined)?.[0]?.url ?? rootServer).replace(/\/$/, '');
    for (const [method, op] of Object.entries(item)) {
      if (!METHODS.includes(method)) continue;
      const content = (op.requestBody as { content?: Record<string, { example?: unknown }> } | undefined)?.content;
      const [type, media] = Object.entries(content ?? {})[0] ?? [];
      out.push({
        server,
        path,
        method,
        operationId: String(op.operationId),
        parameters: (op.parameters as Parameter[] | undefined) ?? [],
        ...(type ? { body: { type, example: media?.example } } : {}),
        security: !(Array.isArray(op.security) && op.security.length === 0),
        ...bucketOf(op.description),
      });
    }
  }
  return out;
}

/** The URL path and query of an operation with the given values (examples where not given). */
export function urlOf(op: Operation, values: { path?: Record<string, string>; query?: Record<string, string | string[]> } = {}): string {
  let path = op.path;
  for (const p of op.parameters.filter((x) => x.in === 'path')) {
    const v = values.path?.[p.name] ?? encodeURIComponent(String(p.example ?? 1));
    path = path.replace(`{${p.name}}`, v);
  }
  const query = new URLSearchParams();
  const given = values.query ?? Object.fromEntries(op.parameters.filter((x) => x.in === 'query' && x.example !== undefined).map((x) => [x.name, String(x.example)]));
  for (const [k, v] of Object.entries(given)) for (const one of Array.isArray(v) ? v : [v]) query.append(k, one);
  const q = query.toString();
  return `${op.server}${path}${q ? `?${q}` : ''}`;
}
