import { accountRoutes } from './accounts.js';
import { dashboardOnlyRoutes } from './dashboard-only.js';
import { postRoutes } from './posts.js';
import type { Route } from './route.js';

/** Every public route of /api/v1: the one place that states each route's policy and backend call. */
export const ROUTES: readonly Route[] = [...postRoutes, ...accountRoutes, ...dashboardOnlyRoutes];
