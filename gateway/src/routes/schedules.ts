import type { PostingSchedule } from '@spa/contracts/accounts/v1/accounts';
import { z } from 'zod';
import { route } from './route.js';
import { dateTime, idParam, int } from './schemas.js';

const PostingSlotSchema = z.object({
  id: z.number().int(),
  day_of_week: z.number().int().min(0).max(6).describe('0 = Sunday … 6 = Saturday, in the schedule time zone'),
  time_of_day: z.string().describe('HH:MM, 24-hour, local'),
  enabled: z.boolean(),
  source: z.string().describe('default (created with the account) or manual'),
});

const PostingScheduleSchema = z
  .object({
    id: z.number().int(),
    social_account_id: z.number().int(),
    timezone: z.string().describe('IANA time zone'),
    max_posts_per_day: z.number().int(),
    paused: z.boolean(),
    posting_slots: z.array(PostingSlotSchema),
  })
  .meta({ id: 'PostingSchedule' });

const UpdateScheduleBody = z
  .object({
    posting_schedule: z
      .object({
        timezone: z.string().min(1).max(64).optional().describe('IANA time zone, e.g. Europe/Berlin'),
        max_posts_per_day: int('int32', 1, 100).optional(),
        paused: z.boolean().optional(),
        posting_slots: z
          .array(
            z
              .object({
                day_of_week: int('int32', 0, 6),
                time_of_day: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM (24-hour)'),
                enabled: z.boolean().optional(),
              })
              .strict(),
          )
          .max(200)
          .optional()
          .describe('Replaces the slots'),
      })
      .strict()
      .refine((p) => Object.keys(p).length > 0, { message: 'name at least one field to change' }),
  })
  .strict();

export function presentSchedule(s: PostingSchedule): z.infer<typeof PostingScheduleSchema> {
  return {
    id: s.id,
    social_account_id: s.socialAccountId,
    timezone: s.timezone,
    max_posts_per_day: s.maxPostsPerDay,
    paused: s.paused,
    posting_slots: s.postingSlots.map((p) => ({ id: p.id, day_of_week: p.dayOfWeek, time_of_day: p.timeOfDay, enabled: p.enabled, source: p.source })),
  };
}

export const scheduleRoutes = [
  route({
    method: 'get',
    path: '/posting_schedules',
    tag: 'Schedules',
    summary: 'List posting schedules (one per connected account)',
    audience: 'api_key',
    scope: 'schedules:read',
    plan: 'paid',
    status: 200,
    response: z.object({ posting_schedules: z.array(PostingScheduleSchema) }),
    handle: async ({ clients, principal }) => {
      const { postingSchedules } = await clients.accounts.listPostingSchedules({ workspaceId: principal.workspaceId });
      return { posting_schedules: postingSchedules.map(presentSchedule) };
    },
  }),
  route({
    method: 'patch',
    path: '/posting_schedules/{id}',
    tag: 'Schedules',
    summary: 'Update a posting schedule',
    description: 'Time zone (IANA), max posts per day, paused, and slots (given slots replace the list). Validated as a whole; unknown time zones and duplicate slots are 422.',
    audience: 'api_key',
    scope: 'schedules:write',
    plan: 'paid',
    params: z.object({ id: idParam }),
    body: UpdateScheduleBody,
    status: 200,
    response: z.object({ posting_schedule: PostingScheduleSchema }),
    handle: async ({ clients, principal, params, body }) => {
      const p = body.posting_schedule;
      const { postingSchedule } = await clients.accounts.updatePostingSchedule({
        workspaceId: principal.workspaceId,
        scheduleId: params.id,
        timezone: p.timezone,
        maxPostsPerDay: p.max_posts_per_day,
        paused: p.paused,
        hasPostingSlots: p.posting_slots !== undefined,
        postingSlots: (p.posting_slots ?? []).map((s) => ({ dayOfWeek: s.day_of_week, timeOfDay: s.time_of_day, enabled: s.enabled })),
      });
      return { posting_schedule: presentSchedule(postingSchedule!) };
    },
  }),
  route({
    method: 'get',
    path: '/posts/next_slot',
    tag: 'Schedules',
    summary: "The account's next free posting slot",
    description:
      'The next enabled slot of the account schedule, in its time zone (DST-safe), that no upcoming post of the account holds and whose local day has room under max_posts_per_day. `next_slot.scheduled_at` is null when the schedule is paused, has no enabled slot, or is full for the next 60 days.',
    audience: 'api_key',
    scope: 'posts:read',
    plan: 'paid',
    query: z.object({ social_account_id: idParam }).strict(),
    status: 200,
    response: z.object({
      next_slot: z.object({
        scheduled_at: dateTime.nullable(),
        social_account_id: z.number().int(),
        timezone: z.string(),
        posting_schedule_id: z.number().int(),
      }),
    }),
    handle: async ({ clients, principal, query }) => {
      const slot = await clients.posts.getNextSlot({ workspaceId: principal.workspaceId, socialAccountId: query.social_account_id });
      return {
        next_slot: {
          scheduled_at: slot.scheduledAt ?? null,
          social_account_id: slot.socialAccountId,
          timezone: slot.timezone,
          posting_schedule_id: slot.postingScheduleId,
        },
      };
    },
  }),
];
