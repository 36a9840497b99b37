import { AppError } from '@spa/errors';
import type { Workspace } from '@spa/contracts/accounts/v1/accounts';
import type { User } from '@spa/contracts/accounts/v1/dashboard';
import express, { type Request, type Response } from 'express';
import { z } from 'zod';
import { validate } from '../../http/validate.js';
import { clearSessionCookie, readSession, requireSession, setSessionCookie } from '../guard.js';
import type { DashboardDeps } from '../router.js';
import type { Session } from '../sessions.js';

const SignInBody = z.object({ email: z.string().trim().min(1).max(320), password: z.string().min(1).max(1024) }).strict();
const SwitchBody = z.object({ workspace_id: z.number().int().positive() }).strict();

const workspaceJson = (w: Workspace) => ({ id: w.id, name: w.name, tier: w.tier, subscription_status: w.subscriptionStatus });

/** What the web app needs to draw itself: who is signed in, where, and the token its changes echo. */
export const sessionJson = (session: Session, user: User, workspaces: Workspace[]) => ({
  user: { id: user.id, email: user.email },
  workspace_id: session.workspaceId,
  workspaces: workspaces.map(workspaceJson),
  csrf_token: session.csrfToken,
  signed_in_at: session.createdAt,
});

/** Sign-in, the current session, sign-out and sign-out everywhere (/dashboard/api/session). */
export function sessionRouter(deps: DashboardDeps): express.Router {
  const router = express.Router();
  router.post('/', async (req: Request, res: Response) => {
    const body = validate(SignInBody, req.body ?? undefined, 'request body');
    const ip = req.ip ?? 'unknown';
    await deps.loginLimits.attempt(ip, body.email);
    const { user } = await deps.clients.dashboard.verifyPassword({ email: body.email, password: body.password });
    if (!user) throw new Error('accounts answered a sign-in without its user');
    await deps.loginLimits.succeeded(ip, body.email);
    const { workspaces } = await deps.clients.dashboard.listUserWorkspaces({ userId: user.id });
    const first = workspaces[0];
    if (!first) throw new AppError('WORKSPACE_FORBIDDEN', 'Your account is not a member of any workspace yet; ask for an invitation');
    // A new session id at every sign-in (no fixation); an older session of this browser ends.
    const previous = await readSession(req, deps.sessions);
    if (previous) await deps.sessions.destroy(previous);
    const session = await deps.sessions.create(user.id, first.id);
    setSessionCookie(req, res, session, deps.settings.sessionAbsoluteSec);
    res.status(201).json(sessionJson(session, user, workspaces));
  });
  router.get('/', async (req: Request, res: Response) => {
    const session = await requireSession(req, deps.sessions);
    const { user, workspaces } = await deps.clients.dashboard.listUserWorkspaces({ userId: session.userId });
    if (!user) throw new AppError('UNAUTHORIZED', 'Sign in to the dashboard first');
    res.json(sessionJson(session, user, workspaces));
  });
  router.delete('/', async (req: Request, res: Response) => {
    const session = await requireSession(req, deps.sessions);
    await deps.sessions.destroy(session);
    clearSessionCookie(req, res);
    res.json({ signed_out: true, sessions_ended: 1 });
  });
  router.post('/sign-out-everywhere', async (req: Request, res: Response) => {
    const session = await requireSession(req, deps.sessions);
    const ended = await deps.sessions.destroyAll(session.userId);
    clearSessionCookie(req, res);
    res.json({ signed_out: true, sessions_ended: ended });
  });
  // Switching the workspace the session shows, to one the user belongs to (also away from one they left).
  router.put('/workspace', async (req: Request, res: Response) => {
    const session = await requireSession(req, deps.sessions);
    const { workspace_id } = validate(SwitchBody, req.body ?? undefined, 'request body');
    const { user, workspaces } = await deps.clients.dashboard.listUserWorkspaces({ userId: session.userId });
    if (!user) throw new AppError('UNAUTHORIZED', 'Sign in to the dashboard first');
    if (!workspaces.some((w) => w.id === workspace_id)) throw new AppError('WORKSPACE_FORBIDDEN', `You are not a member of workspace ${workspace_id}`);
    res.json(sessionJson(await deps.sessions.setWorkspace(session, workspace_id), user, workspaces));
  });
  return router;
}
