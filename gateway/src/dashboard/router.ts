import { AppError } from '@spa/errors';
import express, { type Request, type Response, type NextFunction } from 'express';
import type { DashboardClients } from './clients.js';
import type { DashboardRoute, DashboardSettings, MemberContext } from './context.js';
import { checkSameOrigin, requireSession } from './guard.js';
import type { LoginLimits } from './login-limits.js';
import { apiKeyRoutes } from './routes/api-key.js';
import { mcpClientRoutes } from './routes/mcp-clients.js';
import { overviewRoutes } from './routes/overview.js';
import { sessionRouter } from './routes/session.js';
import { siteRoutes } from './routes/sites.js';
import { socialAccountRoutes } from './routes/social-accounts.js';
import { webhookRoutes } from './routes/webhooks.js';
import type { SessionStore } from './sessions.js';
import { staticBundle } from './static.js';

export interface DashboardDeps {
  clients: DashboardClients;
  sessions: SessionStore;
  loginLimits: LoginLimits;
  settings: DashboardSettings;
  /** The built web app (dashboard/dist); not served when absent. */
  bundleDir: string | undefined;
}

export const DASHBOARD_ROUTES: readonly DashboardRoute[] = [...apiKeyRoutes, ...webhookRoutes, ...socialAccountRoutes, ...siteRoutes, ...overviewRoutes, ...mcpClientRoutes];

/** The member context of a request: its session, and the session's workspace if the user still belongs to it. */
async function memberContext(req: Request, deps: DashboardDeps): Promise<MemberContext> {
  const session = await requireSession(req, deps.sessions);
  const { user, workspaces } = await deps.clients.dashboard.listUserWorkspaces({ userId: session.userId });
  const workspace = workspaces.find((w) => w.id === session.workspaceId);
  if (!user || !workspace) throw new AppError('WORKSPACE_FORBIDDEN', 'You are no longer a member of this workspace; switch to another one');
  return { session, user, workspace, workspaces, clients: deps.clients, sessions: deps.sessions, settings: deps.settings };
}

/**
 * The dashboard surface, mounted at /dashboard: its JSON endpoints under /dashboard/api (session cookie +
 * CSRF token; never API keys) and the built web app everywhere else.
 */
export function dashboardRouter(deps: DashboardDeps): express.Router {
  const router = express.Router();
  const api = express.Router();
  api.use((_req: Request, res: Response, next: NextFunction) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  api.use((req: Request, _res: Response, next: NextFunction) => {
    checkSameOrigin(req);
    next();
  });
  api.use(express.json({ limit: '64kb', type: () => true }));
  api.use('/session', sessionRouter(deps));
  for (const route of DASHBOARD_ROUTES) {
    api[route.method](route.path, async (req: Request, res: Response) => {
      const ctx = await memberContext(req, deps);
      res.status(route.status ?? 200).json(await route.handle(ctx, req));
    });
  }
  api.use((req: Request) => {
    throw new AppError('NOT_FOUND', `No such dashboard endpoint: ${req.method} /dashboard/api${req.path}`);
  });
  router.use('/api', api);
  if (deps.bundleDir) router.use(staticBundle(deps.bundleDir));
  return router;
}
