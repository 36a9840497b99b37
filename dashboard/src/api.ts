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

type SessionListener = () => void;
const sessionEndedListeners = new Set<SessionListener>();
/** Called when any request finds the session ended (signed out elsewhere, expired): the app shows the sign-in form. */
export const onSessionEnded = (listener: SessionListener): (() => void) => {
  sessionEndedListeners.add(listener);
  return () => sessionEndedListeners.delete(listener);
};

/** The answer's JSON ({} when empty or not JSON, as a proxy's error page would be). */
function parseJson(text: string): unknown {
  try {
    return text ? (JSON.parse(text) as unknown) : {};
  } catch {
    return {};
  }
}

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
  const json = parseJson(await res.text());
  if (!res.ok) {
    const e = (json as { error?: { code?: string; message?: string; details?: string[] } }).error ?? {};
    // A 401 on anything but the session itself (signing in, asking who is signed in, signing out): the session ended.
    if (res.status === 401 && path !== '/session') for (const listener of sessionEndedListeners) listener();
    throw new RequestFailed({ status: res.status, code: e.code ?? 'ERROR', message: e.message ?? `Request failed (${res.status})`, ...(e.details ? { details: e.details } : {}) });
  }
  return json as T;
}

/** Tells the dashboard's other tabs that this browser signed in or out (they follow at once). */
const tabs = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel('dashboard-session');
export const tellOtherTabs = (event: 'signed-in' | 'signed-out'): void => tabs?.postMessage(event);
export const onOtherTab = (listener: (event: 'signed-in' | 'signed-out') => void): (() => void) => {
  const handle = (e: MessageEvent) => listener(e.data as 'signed-in' | 'signed-out');
  tabs?.addEventListener('message', handle);
  return () => tabs?.removeEventListener('message', handle);
};

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
