import { listPostsRequest } from '@spa/contracts/codecs';
import { QUEUE_STATUSES, type PostSort, type PostStatus, type SortDirection } from '@spa/vocabulary';
import { presentPost } from '../../routes/posts.js';
import type { DashboardRoute, MemberContext } from '../context.js';

/** Quote Week this month (used of the plan's runs, in the workspace's time zone) and the latest runs. */
async function quoteWeek(ctx: MemberContext) {
  const [quota, runs] = await Promise.all([
    ctx.clients.imageWeek.getRunQuota({ workspaceId: ctx.workspace.id }),
    ctx.clients.imageWeek.listRuns({ workspaceId: ctx.workspace.id, limit: 5, offset: 0 }),
  ]);
  return {
    month: quota.month,
    runs_used: quota.used,
    runs_per_month: quota.limit,
    runs_left: Math.max(quota.limit - quota.used, 0),
    total_runs: runs.totalCount,
    recent_runs: runs.imageWeekRuns.map((r) => ({
      id: r.id,
      status: r.status,
      topic: r.topic,
      dry_run: r.dryRun,
      total_items: r.totalItems,
      completed_items: r.completedItems,
      failed_items: r.failedItems,
      created_at: r.createdAt,
    })),
  };
}

const OUTCOME_STATUSES: readonly PostStatus[] = ['posted', 'failed', 'partial'];

/** Billing (read only: changing the plan stays an operator action) and posts at a glance. */
export const overviewRoutes: DashboardRoute[] = [
  {
    method: 'get',
    path: '/billing',
    handle: async (ctx) => {
      const [summary, quote] = await Promise.all([ctx.clients.settings.getBillingSummary({ workspaceId: ctx.workspace.id }), quoteWeek(ctx)]);
      const { subscription: s, quota: q } = summary;
      return {
        tier: summary.tier,
        subscription: s && { status: s.status, current_period_end: s.currentPeriodEnd || null, cancel_at_period_end: s.cancelAtPeriodEnd, days_until_renewal: s.daysUntilRenewal },
        quota: q && { daily_limit: q.dailyLimit, used_today: q.usedToday, remaining_today: q.remainingToday, resets_at: q.resetsAt },
        max_schedule_days: summary.maxScheduleDays,
        quote_week: quote,
      };
    },
  },
  {
    method: 'get',
    path: '/posts',
    handle: async (ctx) => {
      const list = (statuses: readonly PostStatus[], sort: PostSort, direction: SortDirection) =>
        ctx.clients.posts.listPosts(listPostsRequest({ workspaceId: ctx.workspace.id, statuses, sort, direction, limit: 25, offset: 0 }));
      const [queue, recent, accounts] = await Promise.all([
        list(QUEUE_STATUSES, 'scheduled_at', 'asc'),
        list(OUTCOME_STATUSES, 'created_at', 'desc'),
        ctx.clients.accounts.listSocialAccounts({ workspaceId: ctx.workspace.id, ids: [] }),
      ]);
      // Each target says whether its account is still connected, so that the page offers to reconnect it.
      const connected = new Map(accounts.socialAccounts.map((a) => [a.id, !a.disconnected]));
      const present = (p: Parameters<typeof presentPost>[0]) => {
        const post = presentPost(p);
        return { ...post, post_accounts: post.post_accounts.map((a) => ({ ...a, account_connected: connected.get(a.social_account_id) ?? false })) };
      };
      return {
        queue: queue.posts.map(present),
        queue_total: queue.totalCount,
        recent: recent.posts.map(present),
        counts: { ...queue.statusCounts, ...recent.statusCounts },
      };
    },
  },
];
