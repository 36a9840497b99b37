import { accountRoutes } from './accounts.js';
import { analyticsRoutes } from './analytics.js';
import { billingRoutes } from './billing.js';
import { contentPlanRoutes } from './content-plans.js';
import { customRuleRoutes } from './custom-rules.js';
import { dashboardOnlyRoutes } from './dashboard-only.js';
import { generationRoutes } from './generation.js';
import { mediaRoutes } from './media.js';
import { linkedInUploadRoutes } from './linkedin-uploads.js';
import { platformRoutes } from './platforms.js';
import { postRoutes } from './posts.js';
import { preferenceRoutes } from './preferences.js';
import { scheduleRoutes } from './schedules.js';
import { imageWeekRoutes } from './image-week.js';
import type { Route } from './route.js';
import { accountLookupRoutes } from './account-lookups.js';
import { platformStyleRoutes } from './platform-styles.js';
import { sitePushRoutes } from './site-pushes.js';
import { communityRoutes } from './communities.js';
import { eventRoutes } from './events.js';

/**
 * Every public route of /api/v1: the one place that states each route's policy and backend call.
 * Order matters where paths overlap: fixed paths (/posts/next_slot) before parameters (/posts/{id}).
 */
export const ROUTES: readonly Route[] = [
  ...generationRoutes,
  ...scheduleRoutes,
  ...postRoutes,
  ...platformRoutes,
  ...accountRoutes,
  ...sitePushRoutes,
  ...customRuleRoutes,
  ...preferenceRoutes,
  ...billingRoutes,
  ...contentPlanRoutes,
  ...linkedInUploadRoutes,
  ...mediaRoutes,
  ...dashboardOnlyRoutes,
  ...accountLookupRoutes,
  ...communityRoutes,
  ...imageWeekRoutes,
  ...analyticsRoutes,
  ...platformStyleRoutes,
  ...eventRoutes,
];
