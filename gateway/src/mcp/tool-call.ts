import type { CatalogTool } from './catalog.js';
import type { RestAnswer } from './dispatch.js';

/** A tool's result as MCP carries it (the fields this endpoint sets). */
export interface ToolResult {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export interface RestRequest {
  method: string;
  url: string;
  body?: unknown;
}

interface ErrorEnvelope {
  error: { code: string; message: string; details?: string[]; retry_after?: number };
}

/** A refusal before any REST request: the same envelope REST answers, so an agent reads one shape. */
export function argumentError(details: string[]): ToolResult {
  return errorResult({ error: { code: 'INVALID_PARAMETERS', message: 'Invalid tool arguments', details } });
}

const queryValue = (v: unknown): string => (Array.isArray(v) ? v.map(String).join(',') : typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v));

/**
 * The REST request a tool call stands for: path arguments into the path, query arguments into the query
 * string, `body` as the JSON body. Returns a refusal for an argument the tool does not take or a missing path
 * argument (the path could not be built); everything else is checked by the REST route itself.
 */
export function restRequestOf(tool: CatalogTool, args: Record<string, unknown>): RestRequest | ToolResult {
  const known = new Set([...tool.pathParams, ...tool.queryParams, ...(tool.route.body ? ['body'] : [])]);
  const unknown = Object.keys(args).filter((k) => !known.has(k));
  const missing = tool.pathParams.filter((p) => args[p] === undefined || args[p] === null || args[p] === '');
  if (unknown.length || missing.length) {
    return argumentError([...unknown.map((k) => `${k}: unknown argument; this tool takes ${[...known].join(', ') || 'no arguments'}`), ...missing.map((p) => `${p}: required`)]);
  }
  const path = tool.route.path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(queryValue(args[name])));
  const query = new URLSearchParams();
  for (const name of tool.queryParams) if (args[name] !== undefined && args[name] !== null) query.set(name, queryValue(args[name]));
  const search = query.size ? `?${query.toString()}` : '';
  return { method: tool.route.method, url: `/api/v1${path}${search}`, ...(args.body !== undefined ? { body: args.body } : {}) };
}

/** A short line on what came back: the resource and its state, or how many items of how many. */
export function summaryOf(title: string, status: number, body: unknown): string {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return `${title}: done (HTTP ${status}).`;
  const parts: string[] = [];
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    if (Array.isArray(value)) parts.push(`${value.length} ${key}`);
    else if (value && typeof value === 'object' && 'id' in value) {
      const v = value as { id: unknown; status?: unknown; scheduled_at?: unknown };
      const state = [typeof v.status === 'string' ? v.status : undefined, typeof v.scheduled_at === 'string' ? `scheduled at ${v.scheduled_at}` : undefined].filter(Boolean);
      parts.push(`${key} ${String(v.id)}${state.length ? ` (${state.join(', ')})` : ''}`);
    }
  }
  const meta = (body as { meta?: { total_count?: unknown; offset?: unknown } }).meta;
  if (meta && typeof meta.total_count === 'number') parts.push(`${meta.total_count} in all from offset ${String(meta.offset ?? 0)}; page with offset and limit`);
  return `${title}: ${parts.length ? parts.join(', ') : 'done'} (HTTP ${status}).`;
}

function errorResult(envelope: ErrorEnvelope): ToolResult {
  const { code, message, details, retry_after: retryAfter } = envelope.error;
  const lines = [`${code}: ${message}`, ...(details ?? []).map((d) => `- ${d}`), ...(retryAfter !== undefined ? [`Retry after ${retryAfter} s.`] : [])];
  return { isError: true, content: [{ type: 'text', text: lines.join('\n') }], structuredContent: envelope as unknown as Record<string, unknown> };
}

const isEnvelope = (body: unknown): body is ErrorEnvelope => {
  const error = (body as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  return typeof error?.code === 'string' && typeof error.message === 'string';
};

/** The REST answer as a tool result: a summary and the JSON, or a tool error carrying the contract's code and message. */
export function toolResultOf(title: string, answer: RestAnswer): ToolResult {
  if (answer.status >= 400) {
    return errorResult(isEnvelope(answer.body) ? answer.body : { error: { code: 'INTERNAL_ERROR', message: `HTTP ${answer.status} without an error envelope` } });
  }
  const body = answer.body && typeof answer.body === 'object' && !Array.isArray(answer.body) ? (answer.body as Record<string, unknown>) : { result: answer.body ?? null };
  return {
    content: [
      { type: 'text', text: summaryOf(title, answer.status, body) },
      { type: 'text', text: JSON.stringify(body) },
    ],
    structuredContent: body,
  };
}
