import { randomBytes } from 'node:crypto';
import type { HttpOptions, HttpResponse, Stack } from '@spa/testing';

/** A signed-in dashboard browser, as the HTTP tests play it: the session cookie and the CSRF token. */
export interface DashboardSession {
  cookie: string;
  csrf: string;
  json: Record<string, any>;
}

/** A member of `workspaceId` who signs in with a password, created through the admin CLI. */
export async function inviteUser(stack: Stack, workspaceId: number, email = `user-${randomBytes(4).toString('hex')}@example.com`): Promise<{ email: string; password: string; userId: number }> {
  const password = `pw-${randomBytes(9).toString('base64url')}`;
  const res = await stack.admin(['user', 'invite', '--email', email, '--workspace', String(workspaceId), '--password', password]);
  if (res.code !== 0) throw new Error(`user invite failed: ${res.stderr}`);
  return { email, password, userId: (JSON.parse(res.stdout) as { user_id: number }).user_id };
}

export async function signIn(stack: Stack, email: string, password: string, opts: HttpOptions = {}): Promise<DashboardSession & { res: HttpResponse }> {
  const res = await stack.http('/dashboard/api/session', { method: 'POST', body: { email, password }, ...opts });
  const setCookie = res.headers['set-cookie']?.[0] ?? '';
  return { cookie: setCookie.split(';')[0] ?? '', csrf: (res.json as { csrf_token?: string } | undefined)?.csrf_token ?? '', json: res.json as Record<string, any>, res };
}

/** A dashboard endpoint call with the session's cookie and (on changes) its CSRF token. */
export function dash(stack: Stack, session: DashboardSession, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpResponse> {
  return stack.http(`/dashboard/api${path}`, {
    method,
    body,
    headers: { cookie: session.cookie, ...(method === 'GET' ? {} : { 'x-csrf-token': session.csrf }), ...headers },
  });
}
