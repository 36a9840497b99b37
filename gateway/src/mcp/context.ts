import type { RequestListener } from 'node:http';
import { callRest, type Caller, type RestAnswer } from './dispatch.js';

/** What the MCP resources and prompts read, as REST requests of the caller. */
export interface Reader {
  get(path: string): Promise<RestAnswer>;
}

export const readerOf = (app: RequestListener, caller: Caller): Reader => ({
  get: (path) => callRest(app, caller, { method: 'get', url: `/api/v1${path}` }),
});

/** The REST error carried by an answer, as one line, or undefined for a success. */
export function failureOf(answer: RestAnswer): string | undefined {
  if (answer.status < 400) return undefined;
  const error = (answer.body as { error?: { code?: string; message?: string } } | undefined)?.error;
  return `${error?.code ?? `HTTP ${answer.status}`}: ${error?.message ?? 'request failed'}`;
}
