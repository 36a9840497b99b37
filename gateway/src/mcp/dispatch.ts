import type { IncomingMessage, RequestListener } from 'node:http';
import { inject } from 'light-my-request';

/** Who made the MCP request: what its tool calls carry into the REST requests they become. */
export interface Caller {
  /** The request's Authorization header, as sent. */
  authorization: string;
  requestId: string;
  /** The client's address as the gateway saw it (after its trusted proxies). */
  clientIp: string;
}

/** A REST answer: its status and its JSON (undefined for an empty body). */
export interface RestAnswer {
  status: number;
  body: unknown;
}

/** The requests an MCP call made in-process; the global per-IP limit already counted the MCP request they came from. */
const inProcess = new WeakSet<IncomingMessage>();

export const isInProcess = (req: IncomingMessage): boolean => inProcess.has(req);

/**
 * Express gives every request and response its own prototypes (over IncomingMessage and ServerResponse); the
 * injected ones read their body and keep what is written through methods of their own classes, which would
 * then be lost: they are pinned on the objects themselves first.
 */
function keepOwnMethods(target: object): void {
  const proto = Object.getPrototypeOf(target) as Record<string, unknown>;
  for (const name of Object.getOwnPropertyNames(proto)) {
    if (name === 'constructor') continue;
    const descriptor = Object.getOwnPropertyDescriptor(proto, name);
    if (descriptor && typeof descriptor.value === 'function') Object.defineProperty(target, name, { ...descriptor, enumerable: false });
  }
}

/**
 * Runs one REST request through the gateway's own Express app, in-process: authentication, scopes, plan,
 * per-token limits, validation, handler, error envelope, request id, logs and metrics are those of the REST
 * request, because it is one. Only the global per-IP limit is skipped: the MCP request was counted by it.
 */
export async function callRest(app: RequestListener, caller: Caller, request: { method: string; url: string; body?: unknown }): Promise<RestAnswer> {
  const res = await inject(
    (req, res) => {
      inProcess.add(req);
      keepOwnMethods(req);
      keepOwnMethods(res);
      app(req, res);
    },
    {
      method: request.method.toUpperCase(),
      url: request.url,
      remoteAddress: caller.clientIp,
      headers: {
        authorization: caller.authorization,
        'x-request-id': caller.requestId,
        ...(request.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(request.body !== undefined ? { payload: JSON.stringify(request.body) } : {}),
    },
  );
  const text = res.payload;
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = { error: { code: 'INTERNAL_ERROR', message: `The REST answer was not JSON (HTTP ${res.statusCode})` } };
  }
  return { status: res.statusCode, body };
}
