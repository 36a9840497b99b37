/** The dashboard's own endpoints (/dashboard/api): session cookie, and the CSRF token echoed on every change. */

export interface ApiError {
  status: number;
  code: string;
  message: string;
  details?: string[];
}

export class RequestFailed extends Error {
  constructor(readonly error: ApiError) {
    super(error.message);
  }
}

let csrfToken = '';
export const setCsrfToken = (token: string): void => {
  csrfToken = token;
};

export async function call<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (method !== 'GET') headers['X-CSRF-Token'] = csrfToken;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(`/dashboard/api${path}`, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new RequestFailed({ status: 0, code: 'NETWORK', message: 'The server could not be reached; check your connection and try again.' });
  }
  const text = await res.text();
  const json = text ? (JSON.parse(text) as unknown) : {};
  if (!res.ok) {
    const e = (json as { error?: { code?: string; message?: string; details?: string[] } }).error ?? {};
    throw new RequestFailed({ status: res.status, code: e.code ?? 'ERROR', message: e.message ?? `Request failed (${res.status})`, ...(e.details ? { details: e.details } : {}) });
  }
  return json as T;
}

export interface Workspace {
  id: number;
  name: string;
  tier: string;
  subscription_status: string;
}

export interface SessionInfo {
  user: { id: number; email: string };
  workspace_id: number;
  workspaces: Workspace[];
  csrf_token: string;
  signed_in_at: string;
}
