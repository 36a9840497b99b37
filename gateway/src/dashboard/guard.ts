import { timingSafeEqual } from 'node:crypto';
import { AppError } from '@spa/errors';
import { parse as parseCookies, serialize as serializeCookie } from 'cookie';
import type { Request, Response } from 'express';
import type { Session, SessionStore } from './sessions.js';

/** The session cookie: HttpOnly, SameSite=Strict, scoped to the dashboard, Secure outside localhost. */
export const SESSION_COOKIE = 'spa_dashboard_session';
export const CSRF_HEADER = 'x-csrf-token';
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const isLocalRequest = (req: Request): boolean => LOCAL_HOSTS.has(req.hostname);

export function setSessionCookie(req: Request, res: Response, session: Session, maxAgeSec: number): void {
  res.append('Set-Cookie', serializeCookie(SESSION_COOKIE, session.id, { httpOnly: true, sameSite: 'strict', path: '/dashboard', secure: !isLocalRequest(req), maxAge: maxAgeSec }));
}

export function clearSessionCookie(req: Request, res: Response): void {
  res.append('Set-Cookie', serializeCookie(SESSION_COOKIE, '', { httpOnly: true, sameSite: 'strict', path: '/dashboard', secure: !isLocalRequest(req), maxAge: 0 }));
}

const sameString = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * A change must come from the dashboard's own origin: an Origin header (browsers send it on every POST,
 * PUT, PATCH and DELETE) must name this host, and the body must be JSON (a cross-site form cannot send
 * that without a CORS preflight, which this surface never grants).
 */
export function checkSameOrigin(req: Request): void {
  if (SAFE_METHODS.has(req.method)) return;
  const origin = req.get('origin');
  if (origin !== undefined && origin !== `${req.protocol}://${req.get('host') ?? ''}`) {
    throw new AppError('CSRF_REJECTED', `Changes are accepted from the dashboard's own origin only, not ${origin}`);
  }
  if (req.get('content-length') !== undefined && req.get('content-length') !== '0' && !req.is('application/json')) {
    throw new AppError('CSRF_REJECTED', 'Changes must send Content-Type: application/json');
  }
}

/** The live session of the request's cookie, if any (no CSRF check: for reads and sign-in only). */
export async function readSession(req: Request, sessions: SessionStore): Promise<Session | null> {
  const id = parseCookies(req.get('cookie') ?? '')[SESSION_COOKIE];
  return id ? sessions.get(id) : null;
}

/** The live session of the request's cookie; UNAUTHORIZED without one. Changes must echo its CSRF token. */
export async function requireSession(req: Request, sessions: SessionStore): Promise<Session> {
  const session = await readSession(req, sessions);
  if (!session) throw new AppError('UNAUTHORIZED', 'Sign in to the dashboard first (no session, or it has ended)');
  if (!SAFE_METHODS.has(req.method)) {
    const token = req.get(CSRF_HEADER) ?? '';
    if (!token || !sameString(token, session.csrfToken)) {
      throw new AppError('CSRF_REJECTED', `Missing or wrong ${CSRF_HEADER} header: send the csrf_token of GET /dashboard/api/session`);
    }
  }
  return session;
}
