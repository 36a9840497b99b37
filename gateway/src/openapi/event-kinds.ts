import { DISCONNECT_REASONS, LIFECYCLE_EVENT_KINDS, PLATFORMS, POST_STATUSES, TERMINAL_EVENT_KINDS, type EventKind } from '@spa/vocabulary';
import { z } from 'zod';

/**
 * The `data` of every event kind, version 1: one schema per kind, shared by the webhooks section (opt-in
 * lifecycle deliveries) and GET /events. A field may be added to a kind's data without a new version (ignore
 * fields you do not know); removing, renaming or retyping one makes a new version, named in `version`.
 */
const when = z.iso.datetime({ offset: true });
const id = z.number().int().min(1);

const post = z.object({
  post_id: id,
  status: z.enum(POST_STATUSES).describe("The post's status after the change"),
  scheduled_at: when.nullable().describe('When the post is to be published; null without a time'),
});
const account = z.object({ social_account_id: id, platform: z.enum(PLATFORMS), username: z.string() });
const platformResult = z.object({ platform: z.string(), platform_status: z.string(), platform_post_id: z.string().nullable(), platform_error: z.string().nullable() });
const runEnd = (status: 'completed' | 'failed') =>
  z.object({
    image_week_run_id: id,
    status: z.literal(status),
    topic: z.string(),
    dry_run: z.boolean(),
    total_items: z.number().int().min(0),
    completed_items: z.number().int().min(0),
    failed_items: z.number().int().min(0),
    canceled_items: z.number().int().min(0),
    post_ids: z.array(id).describe('The posts the run created (none for a dry run)'),
    error_message: z
      .string()
      .nullable()
      .describe(status === 'failed' ? 'Why the run failed' : 'null'),
    finished_at: when.nullable(),
  });

export const EVENT_DATA = {
  'post.published': z.object({ post_id: id, status: z.literal('posted'), platforms: z.array(platformResult), dry_run: z.boolean() }),
  'post.failed': z.object({ post_id: id, status: z.literal('failed'), platforms: z.array(platformResult), dry_run: z.boolean() }),
  'post.partial_failure': z.object({ post_id: id, status: z.literal('partial'), platforms: z.array(platformResult), dry_run: z.boolean() }),
  'post.created': post,
  'post.updated': post.extend({ previous_status: z.enum(POST_STATUSES).nullable().describe('The status before the change') }),
  'post.scheduled': post.extend({ scheduled_at: when.describe('When the post is to be published') }),
  'post.deleted': z.object({ post_id: id, status: z.enum(POST_STATUSES).describe('The status the post had') }),
  'post.approved': post,
  'post.rejected': post,
  'account.connected': account.extend({ reconnected: z.boolean().describe('An account connected before, connected again'), sandbox: z.boolean() }),
  'account.disconnected': account.extend({
    reason: z.enum(DISCONNECT_REASONS).describe('revoked (the platform refused its authorization), expired (its token ran out), checkpoint (the platform asks the user to act), by_user'),
    message: z.string().describe('What happened and what to do'),
  }),
  'account.reauth_required': account.extend({
    reason: z.literal('invalid_grant'),
    message: z.string(),
    token_expires_at: when.nullable().describe('When the current token expires (null: unknown)'),
  }),
  'account.expiring': account.extend({ token_expires_at: when, days_left: z.number().int().min(0).describe('Whole days left before the token expires') }),
  'image_week_run.completed': runEnd('completed'),
  'image_week_run.failed': runEnd('failed'),
  'site_push.consumed': z.object({
    site_id: id,
    url: z.string(),
    title: z.string(),
    post_ids: z.array(id).describe('The drafts made from the article, one per matching rule'),
    consumed_at: when,
  }),
} satisfies Record<EventKind, z.ZodObject>;

/** When each kind fires. */
export const EVENT_WHEN: Record<EventKind, string> = {
  'post.published': 'every target platform published successfully',
  'post.failed': 'every target platform failed',
  'post.partial_failure': 'some platforms published and some failed',
  'post.created': 'a post is created (by the API, the dashboard, a content plan, a site push or a Quote Week run)',
  'post.updated': "a post's content, targets, schedule or status is changed by its owner",
  'post.scheduled': 'a post is scheduled: created with a time, given one, moved to another, approved into the schedule, or published now',
  'post.deleted': 'a post is deleted',
  'post.approved': 'a post awaiting review is approved',
  'post.rejected': 'a post awaiting review is rejected (back to draft)',
  'account.connected': 'a social account is connected, or connected again',
  'account.disconnected': 'a social account is disconnected: revoked or expired at the platform, stopped at a platform checkpoint, or by the user',
  'account.reauth_required': 'the platform refused to renew an account’s authorization (invalid_grant): the user must reconnect it',
  'account.expiring': 'the token of an account that cannot be renewed without the user expires within 7 days (e.g. LinkedIn’s 60-day tokens): reconnect before then',
  'image_week_run.completed': 'every item of a Quote Week run finished and at least one card was made',
  'image_week_run.failed': 'a Quote Week run ended without a card (planning failed, or every item failed)',
  'site_push.consumed': "a pushed article's drafts were all made (once per article content)",
};

export const EXAMPLE_EVENT_DATA: Record<EventKind, Record<string, unknown>> = {
  'post.published': {
    post_id: 1234,
    status: 'posted',
    platforms: [{ platform: 'mastodon', platform_status: 'posted', platform_post_id: '113456789', platform_error: null }],
    dry_run: false,
  },
  'post.failed': {
    post_id: 1234,
    status: 'failed',
    platforms: [{ platform: 'mastodon', platform_status: 'failed', platform_post_id: '', platform_error: 'The instance refused the status: 422' }],
    dry_run: false,
  },
  'post.partial_failure': {
    post_id: 1234,
    status: 'partial',
    platforms: [
      { platform: 'mastodon', platform_status: 'posted', platform_post_id: '113456789', platform_error: null },
      { platform: 'bluesky', platform_status: 'failed', platform_post_id: '', platform_error: 'Session expired; reconnect the account' },
    ],
    dry_run: false,
  },
  'post.created': { post_id: 1234, status: 'scheduled', scheduled_at: '2026-03-03T09:00:00.000Z' },
  'post.updated': { post_id: 1234, status: 'scheduled', scheduled_at: '2026-03-04T09:00:00.000Z', previous_status: 'draft' },
  'post.scheduled': { post_id: 1234, status: 'scheduled', scheduled_at: '2026-03-04T09:00:00.000Z' },
  'post.deleted': { post_id: 1234, status: 'draft' },
  'post.approved': { post_id: 1234, status: 'scheduled', scheduled_at: '2026-03-04T09:00:00.000Z' },
  'post.rejected': { post_id: 1234, status: 'draft', scheduled_at: null },
  'account.connected': { social_account_id: 42, platform: 'linkedin', username: 'ada', reconnected: false, sandbox: false },
  'account.disconnected': {
    social_account_id: 42,
    platform: 'linkedin',
    username: 'ada',
    reason: 'revoked',
    message: 'linkedin no longer accepts this account’s authorization: reconnect the account.',
  },
  'account.reauth_required': {
    social_account_id: 42,
    platform: 'twitter',
    username: 'ada',
    reason: 'invalid_grant',
    message: 'twitter no longer accepts this account’s authorization (revoked, expired or password changed): reconnect the account.',
    token_expires_at: '2026-03-02T10:30:00.000Z',
  },
  'account.expiring': { social_account_id: 42, platform: 'linkedin', username: 'ada', token_expires_at: '2026-03-07T09:30:00.000Z', days_left: 5 },
  'image_week_run.completed': {
    image_week_run_id: 7,
    status: 'completed',
    topic: 'courage',
    dry_run: false,
    total_items: 7,
    completed_items: 6,
    failed_items: 1,
    canceled_items: 0,
    post_ids: [1301, 1302, 1303, 1304, 1305, 1306],
    error_message: null,
    finished_at: '2026-03-02T09:41:00.000Z',
  },
  'image_week_run.failed': {
    image_week_run_id: 8,
    status: 'failed',
    topic: 'courage',
    dry_run: false,
    total_items: 0,
    completed_items: 0,
    failed_items: 0,
    canceled_items: 0,
    post_ids: [],
    error_message: 'No free posting slot within 7 days for the configured accounts (paused schedule, no enabled slot, or every slot held)',
    finished_at: '2026-03-02T09:31:00.000Z',
  },
  'site_push.consumed': { site_id: 3, url: 'https://blog.example.com/posts/hello', title: 'Hello', post_ids: [1400, 1401], consumed_at: '2026-03-02T09:30:05.000Z' },
};

/** The kinds a webhook receives when it names none. */
export const DEFAULT_KINDS = TERMINAL_EVENT_KINDS;
export { LIFECYCLE_EVENT_KINDS };

/** The envelope of a lifecycle delivery of `kind` (its `id` is the delivery's, `event_id` the event log's). */
export function lifecycleEventSchema(kind: EventKind) {
  const isPost = kind.startsWith('post.');
  return z
    .object({
      id: z.uuid().describe('One per delivery (derived from the webhook and the event), identical across retries and manual redeliveries: deduplicate on it'),
      event_id: z.uuid().describe("The event's id in the event log (GET /events): the same in every webhook's delivery of it"),
      event: z.literal(kind),
      version: z.literal(1).describe("The version of this kind's data"),
      ...(isPost ? { post_id: id } : {}),
      occurred_at: when,
      data: EVENT_DATA[kind],
    })
    .meta({ id: `${kind.replace(/(^|[._])(\w)/g, (_, _sep: string, c: string) => c.toUpperCase())}Event`, description: `The JSON body of a ${kind} delivery (version 1).` });
}

/** One entry of the event log (GET /events). */
export const LoggedEventSchema = z
  .object({
    id: z.uuid().describe("The event's id: the `event_id` of every webhook delivery of it (the terminal events' deliveries carry it too)"),
    cursor: z.string().regex(/^\d+$/).describe("The event's place in the log: pass it as `after` to read the events that follow it"),
    event: z.enum([...TERMINAL_EVENT_KINDS, ...LIFECYCLE_EVENT_KINDS]),
    version: z.number().int().min(1).describe("The version of this kind's data"),
    post_id: id.optional().describe("A post's events only: the post (as in the post's webhook deliveries)"),
    occurred_at: when,
    data: z.record(z.string(), z.unknown()).describe("The kind's data, exactly as in its webhook delivery (see the webhooks section)"),
  })
  .meta({ id: 'LoggedEvent', description: 'One event of the workspace’s event log.' });
