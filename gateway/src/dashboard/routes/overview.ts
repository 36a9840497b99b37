import { QUEUE_STATUSES } from '@spa/vocabulary';
import { presentPost } from '../../routes/posts.js';
import type { DashboardRoute } from '../context.js';

const OUTCOME_STATUSES = ['posted', 'failed', 'partial'];

/** Billing (read only: changing the plan stays an operator action) and posts at a glance. */
export const overviewRoutes: DashboardRoute[] = [
  {
    method: 'get',
    path: '/billing',
    handle: async (ctx) => {
      const summary = await ctx.clients.settings.getBillingSummary({ workspaceId: ctx.workspace.id });
      const { subscription: s, quota: q } = summary;
      return {
        tier: summary.tier,
        subscription: s && { status: s.status, current_period_end: s.currentPeriodEnd || null, cancel_at_period_end: s.cancelAtPeriodEnd, days_until_renewal: s.daysUntilRenewal },
        quota: q && { daily_limit: q.dailyLimit, used_today: q.usedToday, remaining_today: q.remainingToday, resets_at: q.resetsAt },
        max_schedule_days: summary.maxScheduleDays,
        // Quote Week runs left: the image-week service answers it once it exists in this deployment.
        quote_week: null,
      };
    },
  },
  {
    method: 'get',
    path: '/posts',
    handle: async (ctx) => {
      const list = (statuses: readonly string[], sort: string, direction: string) =>
        ctx.clients.posts.listPosts({ workspaceId: ctx.workspace.id, statuses: [...statuses], sort, sortDirection: direction, limit: 25, offset: 0 });
      const [queue, recent] = await Promise.all([list(QUEUE_STATUSES, 'scheduled_at', 'asc'), list(OUTCOME_STATUSES, 'created_at', 'desc')]);
      return {
        queue: queue.posts.map(presentPost),
        queue_total: queue.totalCount,
        recent: recent.posts.map(presentPost),
        counts: Object.fromEntries([...queue.counts, ...recent.counts].map((c) => [c.status, c.count])),
      };
    },
  },
];
