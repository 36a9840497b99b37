import { accountRoutes } from './accounts.js';
import { dashboardOnlyRoutes } from './dashboard-only.js';
import { platformRoutes } from './platforms.js';
import { postRoutes } from './posts.js';
import { scheduleRoutes } from './schedules.js';
import type { Route } from './route.js';

/**
 * Every public route of /api/v1: the one place that states each route's policy and backend call.
 * Order matters where paths overlap: fixed paths (/posts/next_slot) before parameters (/posts/{id}).
 */
export const ROUTES: readonly Route[] = [...scheduleRoutes, ...postRoutes, ...platformRoutes, ...accountRoutes, ...dashboardOnlyRoutes];
