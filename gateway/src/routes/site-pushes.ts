import type { SitePush } from '@spa/contracts/posts/v1/site_pushes';
import { z } from 'zod';
import { Answer, route } from './route.js';
import { dateTime, SiteStatusSchema } from './schemas.js';

const text = (max: number) => z.string().max(max, `must be at most ${max} characters`);

/** An article pushed by the site; fields not listed are ignored. Nothing is fetched from its URLs. */
const ArticleBody = z.object({
  url: text(2048)
    .min(1, 'is required')
    .describe("The article's public URL: http or https, on the site's own host (a leading www. aside). Identifies the article: a second push of it updates the record."),
  title: text(500).trim().min(1, 'is required'),
  excerpt: text(5_000).optional(),
  content: text(100_000).optional().describe('The article body (HTML or text); only its text is used, to write the posts.'),
  image_url: text(2048).optional().describe('Recorded with the article; never fetched.'),
  published_at: dateTime.optional(),
});

const SitePushSchema = z
  .object({
    url: z.string(),
    title: z.string(),
    first_pushed_at: dateTime,
    last_pushed_at: dateTime,
    consumed_at: dateTime.nullable().describe("When the posts of the article's current content were all created; null while they are being made, or when no rule matched."),
    matched_rules: z.number().int().describe('Enabled rules of the site with a connected account on their platform (0: an unmatched push, counted in unmatched_pushes).'),
    content_changed: z.boolean().describe('True when this content had no posts made from it yet (a first push, or an edited article): a set of posts is made for it.'),
    drafts: z
      .array(z.object({ rule_id: z.number().int(), platform: z.string(), post_id: z.number().int() }))
      .describe("The posts (source blog) claimed so far for the article's current content, one per matched rule."),
  })
  .meta({ id: 'SitePush' });

const presentPush = (p: SitePush) => ({
  url: p.url,
  title: p.title,
  first_pushed_at: p.firstPushedAt,
  last_pushed_at: p.lastPushedAt,
  consumed_at: p.consumedAt ?? null,
  matched_rules: p.matchedRules,
  content_changed: p.contentChanged,
  drafts: p.drafts.map((d) => ({ rule_id: d.ruleId, platform: d.platform, post_id: d.postId })),
});

export const sitePushRoutes = [
  route({
    method: 'post',
    path: '/site_pushes',
    tag: 'Site Push',
    summary: 'Push a published article of the connected site',
    description:
      "Site Connection token only. Idempotent by `url`: the first push answers 201, a later push of the same URL 200 (its record and `last_pushed_at` updated). For each enabled rule of the site whose platform has a connected account, the generation service writes a post from the article in the workspace's voice, fitted to the platform with the article's link at the end, `source: \"blog\"`, as a draft or in the account's next free slot (rule `schedule_mode: scheduled`; a draft when there is none). The posts are made in the background (`consumed_at` is set when all exist; see GET /site_pushes/status); a later push of unchanged content makes none, an edited article gets a new set. A push no rule matches counts in `unmatched_pushes`. When the generation service refuses (daily quota), a post is made from the article's title and excerpt instead. The URL must be http(s) on the site's own host (422 naming `url`); nothing is fetched from any URL given.",
    audience: 'site_token',
    plan: 'any',
    body: ArticleBody,
    bodyLimit: '256kb',
    status: 201,
    response: z.object({ site_push: SitePushSchema }),
    handle: async ({ clients, principal, body }) => {
      const { push, created } = await clients.sitePushes.pushArticle({
        workspaceId: principal.workspaceId,
        siteId: principal.siteId,
        article: { url: body.url, title: body.title, excerpt: body.excerpt, content: body.content, imageUrl: body.image_url, publishedAt: body.published_at },
      });
      const answer = { site_push: presentPush(push!) };
      return created ? answer : new Answer(200, answer);
    },
  }),
  route({
    method: 'get',
    path: '/site_pushes/status',
    tag: 'Site Push',
    summary: "Status of the token's connected site",
    description:
      "Site Connection token only. The site, its rules (managed in the dashboard), and its 10 most recently pushed articles, newest first. `last_push_at` is the latest push's time; `unmatched_pushes` counts pushes no enabled rule with a connected account matched.",
    audience: 'site_token',
    plan: 'any',
    status: 200,
    response: SiteStatusSchema,
    handle: async ({ clients, principal }) => {
      const s = await clients.sitePushes.getSitePushStatus({ workspaceId: principal.workspaceId, siteId: principal.siteId });
      return {
        connection: { name: s.name, site_url: s.siteUrl, cms: s.cms, last_push_at: s.lastPushAt ?? null, unmatched_pushes: s.unmatchedPushes },
        rules: s.rules.map((r) => ({ id: r.id, platform: r.platform, trigger: r.trigger, schedule_mode: r.scheduleMode, enabled: r.enabled })),
        recent_pushes: s.recentPushes.map((p) => ({ url: p.url, title: p.title, last_pushed_at: p.lastPushedAt, consumed_at: p.consumedAt ?? null })),
      };
    },
  }),
];
