import type { IncomingHttpHeaders } from 'node:http';
import type { SandboxMediaRule } from './media/rules.js';
import type { SandboxState } from './state.js';

export interface SandboxRequest {
  method: string;
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** Parsed JSON or form fields when the body is JSON or urlencoded; otherwise the raw bytes. */
  body: unknown;
  raw: Buffer;
  /** The account behind the bearer token (`Authorization: Bearer sandbox-<account>`, or `Bot sandbox-<account>`), if any. */
  account: string | undefined;
}

export interface SandboxResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface Route {
  method: string;
  /** Path under the platform prefix, with `:name` parameters, e.g. `/2/tweets/:id`. */
  path: string;
  /** A create: the injected faults apply to it. */
  creates?: boolean;
  /** A metrics read: faults injected with `on: 'metrics'` apply to it. */
  metrics?: boolean;
  /** Requests need a sandbox token (default true). */
  auth?: boolean;
  handle(req: SandboxRequest, state: SandboxState): SandboxResponse | Promise<SandboxResponse>;
}

/** A platform stand-in: its URL prefix (e.g. `twitter`), routes, and how it says "bad token". */
export interface SandboxPlatform {
  name: string;
  routes: Route[];
  /** The platform's own answer for an invalid or expired token. */
  unauthorized(): SandboxResponse;
  /** The documented rules this stand-in enforces, each with its source: the README's rule table is made from them. */
  rules?: PlatformRules;
}

/** A platform's rules as its stand-in enforces them: per media kind, and every other rule in words, each with the page that documents it. */
export interface PlatformRules {
  media?: Partial<Record<'image' | 'video' | 'document', SandboxMediaRule>>;
  other?: ReadonlyArray<{ rule: string; source: string }>;
}

export function compile(path: string): RegExp {
  return new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\\:(\w+)|:(\w+)/g, (_m, a: string, b: string) => `(?<${a ?? b}>[^/]+)`)}$`);
}
