import type { Workspace } from '@spa/contracts/accounts/v1/accounts';
import type { User } from '@spa/contracts/accounts/v1/dashboard';
import type { Request } from 'express';
import type { DashboardClients } from './clients.js';
import type { Session, SessionStore } from './sessions.js';

/** What every page's endpoint knows: the signed-in member and the workspace the session shows. */
export interface MemberContext {
  session: Session;
  user: User;
  workspace: Workspace;
  workspaces: Workspace[];
  clients: DashboardClients;
  sessions: SessionStore;
  settings: DashboardSettings;
}

export interface DashboardSettings {
  /** Sandbox social accounts may be connected from the dashboard. */
  sandboxAccounts: boolean;
  /** Session lifetimes in seconds. */
  sessionIdleSec: number;
  sessionAbsoluteSec: number;
}

/** One endpoint under /dashboard/api, for members of the session's workspace. */
export interface DashboardRoute {
  method: 'get' | 'post' | 'put' | 'delete';
  path: string;
  /** 200 unless given. */
  status?: number;
  handle(ctx: MemberContext, req: Request): Promise<unknown>;
}
