import { DashboardServiceService, type User as UserMessage } from '@spa/contracts/accounts/v1/dashboard';
import { bindService, type ServiceBinding } from '@spa/grpc';
import { getActiveApiKey, listSites } from '../domain/dashboard-reads.js';
import type { DashboardDeps } from '../domain/dashboard-ports.js';
import { findUserByEmail, listUserWorkspaces, setPassword, verifyPassword, type UserView } from '../domain/sign-in.js';
import { workspaceMessage } from './handlers.js';

const userMessage = (u: UserView): UserMessage => ({ id: u.id, email: u.email, createdAt: u.createdAt.toISOString(), hasPassword: u.hasPassword });

/** gRPC transport of sign-in and the dashboard's reads (accounts.v1.DashboardService). */
export function dashboardService(deps: DashboardDeps): ServiceBinding {
  return bindService('accounts.v1.DashboardService', DashboardServiceService, {
    setPassword: async (req) => {
      await setPassword(deps, req.userId, req.password);
      return {};
    },
    verifyPassword: async (req) => ({ user: userMessage(await verifyPassword(deps, req.email, req.password)) }),
    findUserByEmail: async (req) => ({ user: userMessage(await findUserByEmail(deps, req.email)) }),
    listUserWorkspaces: async (req) => {
      const { user, workspaces } = await listUserWorkspaces(deps, req.userId);
      return { user: userMessage(user), workspaces: workspaces.map(workspaceMessage) };
    },
    getActiveApiKey: async (req) => {
      const view = await getActiveApiKey(deps, req.workspaceId);
      if (!view) return {};
      return {
        apiKey: {
          id: view.key.id,
          prefix: view.key.prefix ?? '',
          scopes: view.key.scopes,
          createdByUserId: view.key.userId,
          createdByEmail: view.createdByEmail,
          createdAt: view.key.createdAt.toISOString(),
          lastUsedAt: view.lastUsedAt?.toISOString(),
        },
      };
    },
    listSites: async (req) => ({
      sites: (await listSites(deps, req.workspaceId)).map((s) => ({
        id: s.id,
        name: s.name,
        url: s.url,
        cms: s.cms,
        createdAt: s.createdAt.toISOString(),
        lastPushAt: s.lastPushAt?.toISOString(),
        unmatchedPushes: s.unmatchedPushes,
      })),
    }),
  });
}
