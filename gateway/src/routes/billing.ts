import { TIERS } from '@spa/vocabulary';
import { z } from 'zod';
import { route } from './route.js';
import { dateTime } from './schemas.js';

const BillingSummarySchema = z
  .object({
    subscription: z.object({
      id: z.number().int(),
      status: z.string().describe('active, trialing, past_due or canceled'),
      current_period_end: dateTime.nullable(),
      cancel_at_period_end: z.boolean(),
      days_until_renewal: z.number().int().describe('Whole days until current_period_end, rounded up; 0 once it has passed'),
    }),
    tier: z.enum(TIERS),
    quota: z
      .object({
        tier: z.enum(TIERS),
        daily_limit: z.number().int().describe('AI generations a day on this plan (starter 100, pro 500, team 2000)'),
        replies_used_today: z.number().int().describe('AI generations counted today (every generated post: a batch of n counts n; a thread or carousel counts 1); requests that fail count nothing'),
        replies_remaining_today: z.number().int(),
        resets_at: dateTime.describe("The next midnight in the workspace's time zone (preferences.timezone)"),
      })
      .describe('The daily AI generation quota; the day is the local day of the workspace'),
    max_schedule_days: z.number().int().describe('How far ahead posts may be scheduled on this plan'),
  })
  .meta({ id: 'BillingSummary' });

export const billingRoutes = [
  route({
    method: 'get',
    path: '/billing/subscriptions/current',
    tag: 'Billing',
    summary: 'The subscription and today’s AI generation quota',
    description:
      'Read-only, on every plan and subscription status, so that a workspace whose paid operations answer 403 NO_ACTIVE_SUBSCRIPTION can read why (e.g. `status: past_due`). Billing mutations are dashboard-only.',
    audience: 'api_key',
    scope: 'billing:read',
    plan: 'any',
    status: 200,
    response: BillingSummarySchema,
    handle: async ({ clients, principal }) => {
      const summary = await clients.settings.getBillingSummary({ workspaceId: principal.workspaceId });
      const { subscription: s, quota: q } = summary;
      if (!s || !q) throw new Error('generation answered a billing summary without subscription or quota');
      return {
        subscription: {
          id: s.id,
          status: s.status,
          current_period_end: s.currentPeriodEnd || null,
          cancel_at_period_end: s.cancelAtPeriodEnd,
          days_until_renewal: s.daysUntilRenewal,
        },
        tier: summary.tier,
        quota: {
          tier: q.tier,
          daily_limit: q.dailyLimit,
          replies_used_today: q.usedToday,
          replies_remaining_today: q.remainingToday,
          resets_at: q.resetsAt,
        },
        max_schedule_days: summary.maxScheduleDays,
      };
    },
  }),
];
