import { CONTENT_TYPES, PLATFORMS, POST_SORTS, POST_STATUSES, SORT_DIRECTIONS, type PostStatus } from '@spa/vocabulary';
import { z } from 'zod';
import { AccountHealthFields } from './account-health.js';
import { ContentMetadataSchema, refinePostOptions } from './content-metadata.js';

/** Public JSON shapes, shared by request validation, response documentation and the OpenAPI document. */

/**
 * The integers each proto type carries exactly, as a JSON number: an int64 as far as 2^53 - 1. Every integer a
 * route accepts is built by `int` or `queryInt` with the type of the proto field it is sent in, so no value can
 * overflow the field behind it (routes/route-inputs.test.ts walks every route for one that is not).
 */
export const PROTO_INT_RANGES = {
  int32: [-2_147_483_648, 2_147_483_647],
  uint32: [0, 4_294_967_295],
  int64: [-Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
} as const;
export type ProtoInt = keyof typeof PROTO_INT_RANGES;

function checkedRange(type: ProtoInt, min: number, max: number): void {
  const [low, high] = PROTO_INT_RANGES[type];
  if (min < low || max > high || min > max) throw new Error(`${min}..${max} is not within ${type} (${low}..${high})`);
}

/** An integer body field sent in a proto field of `type`, from `min` to `max` (within the type); the document states both and the type as `format`. */
export const int = (type: ProtoInt, min: number, max: number) => {
  checkedRange(type, min, max);
  return z.number().int().min(min).max(max).meta({ format: type });
};

/** The same for a path or query parameter (text read as a number): `1.5`, `abc`, `1e400` and values out of range are 422 naming it. */
export const queryInt = (type: ProtoInt, min: number, max: number) => {
  checkedRange(type, min, max);
  return z.coerce.number().int().min(min).max(max).meta({ format: type });
};

/** An id: 1 to 2^53 - 1 (int64 fields). */
export const ID_MAX = Number.MAX_SAFE_INTEGER;
export const idParam = queryInt('int64', 1, ID_MAX);
/** An id in a body. */
export const idField = () => int('int64', 1, ID_MAX);

/** List offsets travel as 32-bit integers. */
export const MAX_QUERY_INT = 2_147_483_647;
/** A page size: default `def`; any larger whole number is clamped to `max` (the contract's rule for GET /posts). */
export const pageLimit = (def: number, max = 200) =>
  queryInt('int64', 1, Number.MAX_SAFE_INTEGER)
    .default(def)
    .describe(`Default ${def}; values above ${max} are clamped to ${max}`)
    .transform((n) => Math.min(n, max));
/** A page offset: 0 to 2147483647 (larger is 422 naming `offset`). */
export const pageOffset = queryInt('int32', 0, MAX_QUERY_INT).default(0).describe(`Default 0; at most ${MAX_QUERY_INT}`);
export const dateTime = z.iso.datetime({ offset: true });

const nullable = <T extends z.ZodType>(t: T) => t.nullable();

/** A count of a metric snapshot: null when the platform does not report it. */
const reportedCount = (what: string) => z.number().int().nullable().describe(`${what} of the latest snapshot; null when the platform does not report it (never 0 for unknown)`);

export const PostMetricSchema = z.object({
  impressions: reportedCount('Impressions'),
  likes: reportedCount('Likes'),
  replies: reportedCount('Replies'),
  reposts: reportedCount('Reposts'),
  clicks: reportedCount('Link clicks'),
  engagement_rate: z
    .number()
    .nullable()
    .describe(
      '(likes + replies + reposts + clicks, those the platform reports) / impressions of the latest snapshot; null when impressions are 0 or not reported, or the platform reports none of the interactions',
    ),
  fetched_at: dateTime,
});

export const PostContentSchema = z.object({
  id: z.number().int(),
  platform: z.enum(PLATFORMS),
  body: z.string(),
  content_type: z.enum(CONTENT_TYPES),
  position: z.number().int(),
  first_comment: nullable(z.string()),
  metadata: ContentMetadataSchema,
});

export const PostAccountSchema = z.object({
  id: z.number().int(),
  social_account_id: z.number().int(),
  platform: z.enum(PLATFORMS),
  username: z.string(),
  platform_status: nullable(z.string()),
  platform_post_id: nullable(z.string()),
  permalink: nullable(z.string()),
  platform_error: nullable(z.string()),
  dub_short_url: nullable(z.string()),
  dub_original_url: nullable(z.string()),
  post_metric: nullable(PostMetricSchema),
});

export const PostSchema = z
  .object({
    id: z.number().int(),
    status: z.enum(POST_STATUSES),
    flexible: z.boolean(),
    scheduled_at: nullable(dateTime),
    posted_at: nullable(dateTime),
    failed_at: nullable(dateTime),
    post_error: nullable(z.string()),
    disconnected: z.boolean(),
    source: z.string(),
    recurrence_jitter_enabled: z.boolean(),
    evergreen: z.boolean(),
    evergreen_variations: z.array(z.string()),
    recycled_from_id: nullable(z.number().int()).describe('On a recycled post: the evergreen original it repeats'),
    recurrence_interval_days: z.number().int().describe('Days from an evergreen posting to the earliest time of its recurrence'),
    reviewed_at: nullable(dateTime),
    review_action: nullable(z.string()),
    rejection_reason: nullable(z.string()),
    created_at: dateTime,
    body: z.string(),
    post_contents: z.array(PostContentSchema),
    post_accounts: z.array(PostAccountSchema),
    dry_run: z.boolean(),
  })
  .meta({ id: 'Post', description: 'Every field is always present; a field with no value is null.' });

export const ListMetaSchema = z.object({ limit: z.number().int(), offset: z.number().int(), total_count: z.number().int() });

const isPostStatus = (x: string): x is PostStatus => (POST_STATUSES as readonly string[]).includes(x);

export const ListPostsQuerySchema = z
  .object({
    status: z
      .string()
      .optional()
      .describe(`Comma-separated statuses (${POST_STATUSES.join(', ')}); default: draft, pending_review, scheduled, publishing`)
      .transform((s, ctx) => {
        if (s === undefined) return undefined;
        const list = s
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean);
        for (const x of list.filter((x) => !isPostStatus(x))) {
          ctx.addIssue({ code: 'custom', message: `unknown status ${JSON.stringify(x)}; allowed: ${POST_STATUSES.join(', ')}` });
        }
        return list.filter(isPostStatus);
      }),
    source: z.string().min(1).max(100).optional(),
    scheduled_after: dateTime.optional().describe('Inclusive lower bound on scheduled_at'),
    scheduled_before: dateTime.optional().describe('Inclusive upper bound on scheduled_at'),
    platform: z.enum(PLATFORMS).optional().describe('Posts targeting this platform'),
    sort: z.enum(POST_SORTS).default('created_at'),
    sort_direction: z.enum(SORT_DIRECTIONS).default('desc'),
    limit: pageLimit(100),
    offset: pageOffset,
  })
  .strict();

export const NewPostContentSchema = z
  .object({
    platform: z.enum(PLATFORMS),
    body: z.string().max(100_000).optional().describe('Defaults to the post body'),
    content_type: z.enum(CONTENT_TYPES).optional().describe('Default text; document only on linkedin; poll only on twitter and linkedin'),
    position: int('int32', 0, 100).optional().describe('0-based order (threads); default 0'),
    first_comment: z.string().max(10_000).optional(),
    metadata: ContentMetadataSchema.optional().describe(
      "Media and this platform's choices (board_id, link, title, privacy_level, disable_*, privacy_status, media_fit); required on tiktok for privacy_level",
    ),
  })
  .strict()
  .superRefine(refinePostOptions);

const postAccountsSchema = z
  .array(z.object({ social_account_id: idField() }).strict())
  .max(50)
  .describe('Target accounts');

/**
 * Evergreen and recurrence (Pro and Team; on Starter, turning any on is 403 TIER_UPGRADE_REQUIRED).
 * Bounds live in the posts service's recurrence.ts; they are repeated here for the OpenAPI document.
 */
const recurrenceFields = {
  evergreen: z
    .boolean()
    .optional()
    .describe(
      "Recycle the post once posted: a new post (recycled_from_id = this one) goes into the first target account's next free slot at least recurrence_interval_days after the posting, and so on after each posting, until this post is deleted, evergreen is turned off, a target account is disconnected or the plan no longer allows it. The recycled posts' own evergreen fields are not used: the original governs the series.",
    ),
  evergreen_variations: z
    .array(z.string().trim().min(1).max(100_000))
    .max(50)
    .optional()
    .describe(
      "Texts the recycles rotate through, in order, skipping any identical to one of the last 3 versions of the series; with none left (or none given), the generation service writes a fresh wording in the workspace's voice, never identical to the last 3 versions",
    ),
  recurrence_interval_days: int('int32', 1, 365).optional().describe('Days from a posting to the earliest time of its recurrence, 1 to 365 (default 30)'),
  recurrence_jitter_enabled: z
    .boolean()
    .optional()
    .describe("Shift each recurrence's earliest time by a uniform random amount within ±25% of the interval, at most ±12 hours, so repeats do not look automated"),
};

/** The fields a client may set on a post (create, bulk create). */
export const PostFieldsSchema = z
  .object({
    body: z.string().max(100_000).default(''),
    status: z.enum(['draft', 'scheduled']).optional().describe('Default: scheduled when scheduled_at is given, else draft'),
    scheduled_at: dateTime.optional().describe('Required for scheduled posts; must be in the future'),
    flexible: z.boolean().optional(),
    ...recurrenceFields,
    dry_run: z.boolean().optional(),
    post_contents: z.array(NewPostContentSchema).max(100).default([]),
    post_accounts: postAccountsSchema.default([]),
  })
  .strict();

export const CreatePostBodySchema = z.object({ post: PostFieldsSchema }).strict();

export const BulkCreatePostsBodySchema = z.object({ posts: z.array(PostFieldsSchema).min(1).max(100).describe('1 to 100 posts, validated as a whole') }).strict();

export const UpdatePostBodySchema = z
  .object({
    post: z
      .object({
        body: z.string().max(100_000).optional(),
        status: z.enum(['draft', 'scheduled']).optional(),
        scheduled_at: dateTime.nullable().optional().describe('null removes the time (the post becomes a draft)'),
        flexible: z.boolean().optional(),
        ...recurrenceFields,
        dry_run: z.boolean().optional(),
        post_contents: z.array(NewPostContentSchema).max(100).optional().describe('Replaces the contents'),
        post_accounts: postAccountsSchema.optional().describe('Replaces the targets'),
      })
      .strict()
      .refine((p) => Object.keys(p).length > 0, { message: 'name at least one field to change' }),
  })
  .strict();

export const RejectPostBodySchema = z.object({ rejection_reason: z.string().trim().min(1).max(2000) }).strict();

export const SocialAccountSchema = z.object({
  id: z.number().int(),
  platform: z.enum(PLATFORMS),
  username: z.string(),
  display_name: z.string().nullable(),
  avatar_url: z.string().nullable(),
  disconnected: z.boolean(),
  disconnected_reason: z.string().nullable().describe('Why the account is disconnected and what to do (null while connected).'),
  sandbox: z.boolean(),
  connected_at: dateTime,
  token_expires_at: dateTime.nullable().describe('When the current access token expires (refreshed before then); null when it does not expire.'),
  created_at: dateTime,
  ...AccountHealthFields,
});

export const SiteStatusSchema = z.object({
  connection: z.object({
    name: z.string(),
    site_url: z.string(),
    cms: z.string(),
    last_push_at: nullable(dateTime),
    unmatched_pushes: z.number().int(),
  }),
  rules: z.array(z.object({ id: z.number().int(), platform: z.string(), trigger: z.string(), schedule_mode: z.string(), enabled: z.boolean() })),
  recent_pushes: z.array(z.object({ url: z.string(), title: z.string(), last_pushed_at: dateTime, consumed_at: nullable(dateTime) })),
});

export const ErrorEnvelopeSchema = z
  .object({
    error: z.object({
      message: z.string(),
      code: z.string(),
      details: z.array(z.string()).optional(),
      retry_after: z.number().int().optional(),
    }),
  })
  .meta({ id: 'Error' });
