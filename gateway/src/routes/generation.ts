import { PLATFORMS } from '@spa/vocabulary';
import { z } from 'zod';
import { route } from './route.js';
import { dateTime, idField, int } from './schemas.js';

/** Bounds (plans in docs/architecture.md and the generation service, which checks them again). */
const topic = z.string().trim().min(1, 'is required').max(500, 'must be at most 500 characters');
const platform = z.enum(PLATFORMS);
const angle = z.string().trim().max(200, 'must be at most 200 characters').optional();

const GenerateBody = z.object({ topic: topic.describe('What the post is about'), platform, angle: angle.describe('A particular take on the topic') });
const GenerateFromIdeaBody = z.object({
  idea: topic.describe('Typically the seed_prompt of POST /content_ideas/{id}/use; any topic text is accepted'),
  platform,
});
const GenerateBatchBody = z.object({
  category: topic.describe('The category (topic) the posts are about; each post takes a different angle on it'),
  count: int('int32', 1, 20).describe('1–20 posts'),
  platform,
});
const GenerateThreadBody = z.object({
  topic,
  tweet_count: int('int32', 2, 25).describe('2–25 parts'),
  platform: platform.describe('A platform that publishes threads: twitter, threads, bluesky, mastodon or discord (others are 422)'),
});
const GenerateCarouselBody = z.object({
  topic,
  slide_count: int('int32', 3, 10).optional().describe('3–10 slides; default 6'),
  angle,
  social_account_id: idField().optional().describe('The connected LinkedIn account it is for; default: any connected LinkedIn account of the workspace'),
});

const modelDegraded = z.boolean().describe('True when the preferred model failed, timed out or wrote unacceptable text and a fallback model wrote this');

const SlideSchema = z.object({ title: z.string().describe('At most 80 characters'), body: z.string().describe('At most 320 characters') }).meta({ id: 'CarouselSlide' });

const VoiceProfileSchema = z
  .object({
    sample_size: z.number().int().describe('Posts learned from: posted and approved posts, the latest 200 at most. 0 = neutral profile (no posts yet)'),
    average_length: z.number().int().describe('Characters per post'),
    median_length: z.number().int(),
    average_lines: z.number().describe('Non-empty lines per post'),
    emoji_per_post: z.number(),
    hashtags_per_post: z.number(),
    top_hashtags: z.array(z.string()).describe('Most used hashtags, most frequent first (at most 10)'),
    frequent_phrases: z.array(z.string()).describe('2–3-word phrases found in at least two posts (at most 10)'),
    question_ratio: z.number().describe('Share of posts with a question (0–1)'),
    exclamation_ratio: z.number().describe('Share of posts with an exclamation mark (0–1)'),
    list_ratio: z.number().describe('Share of posts with a list (0–1)'),
    tone: z.string().describe('Guessed tone, one of the preference tones (heuristic: vocabulary, lists, exclamations, emoji, length, questions)'),
    updated_at: dateTime.describe('When the profile was learned; it is learned again when older than 10 minutes'),
  })
  .meta({ id: 'VoiceProfile' });

const GENERATION = {
  tag: 'AI generation',
  audience: 'api_key',
  scope: 'ai:generate',
  plan: 'paid',
  status: 200,
} as const;
const QUOTA_NOTE =
  'Counts against the daily generation quota (429 DAILY_LIMIT_EXCEEDED with retry_after = seconds until the workspace midnight); ' +
  'a request that fails gives its units back. 422 GENERATION_FAILED when no model produced content within the platform limit and the active custom rules.';

export const generationRoutes = [
  route({
    ...GENERATION,
    method: 'post',
    path: '/posts/generate',
    summary: 'Generate one post',
    description: `One quota unit. ${QUOTA_NOTE}`,
    bucket: 'generate',
    body: GenerateBody,
    response: z.object({ body: z.string(), model_degraded: modelDegraded }).meta({ id: 'GeneratedPost' }),
    handle: async ({ clients, principal, body }) => {
      const r = await clients.generation.generate({ workspaceId: principal.workspaceId, topic: body.topic, platform: body.platform, angle: body.angle });
      return { body: r.body, model_degraded: r.modelDegraded };
    },
  }),
  route({
    ...GENERATION,
    method: 'post',
    path: '/posts/generate_from_idea',
    summary: 'Generate drafts from an idea',
    description: `Three distinct drafts; \`body\` and \`model_degraded\` are the first draft's. One quota unit. ${QUOTA_NOTE}`,
    bucket: 'generate',
    body: GenerateFromIdeaBody,
    response: z.object({ body: z.string(), drafts: z.array(z.object({ body: z.string(), model_degraded: modelDegraded })), model_degraded: modelDegraded }).meta({ id: 'GeneratedDrafts' }),
    handle: async ({ clients, principal, body }) => {
      const r = await clients.generation.generateFromIdea({ workspaceId: principal.workspaceId, idea: body.idea, platform: body.platform });
      return { body: r.body, drafts: r.drafts.map((d) => ({ body: d.body, model_degraded: d.modelDegraded })), model_degraded: r.modelDegraded };
    },
  }),
  route({
    ...GENERATION,
    method: 'post',
    path: '/posts/generate_batch',
    summary: 'Generate a batch of standalone posts for a category',
    description: `Exactly \`count\` posts, no two near-duplicates of each other or of the workspace's last 50 posts (word 3-shingles, Jaccard similarity below 0.6). \`count\` quota units. ${QUOTA_NOTE}`,
    bucket: 'generate_multi',
    body: GenerateBatchBody,
    response: z.object({ posts: z.array(z.string()), degraded_count: z.number().int().describe('How many posts a fallback model wrote') }).meta({ id: 'GeneratedBatch' }),
    handle: async ({ clients, principal, body }) => {
      const r = await clients.generation.generateBatch({ workspaceId: principal.workspaceId, category: body.category, count: body.count, platform: body.platform });
      return { posts: r.posts, degraded_count: r.degradedCount };
    },
  }),
  route({
    ...GENERATION,
    method: 'post',
    path: '/posts/generate_thread',
    summary: 'Generate a thread',
    description: `Exactly \`tweet_count\` parts, each within the platform limit (X: 280 weighted), not numbered (the first part announces the thread). One quota unit. ${QUOTA_NOTE}`,
    bucket: 'generate_multi',
    body: GenerateThreadBody,
    response: z.object({ tweets: z.array(z.string()), model_degraded: modelDegraded }).meta({ id: 'GeneratedThread' }),
    handle: async ({ clients, principal, body }) => {
      const r = await clients.generation.generateThread({ workspaceId: principal.workspaceId, topic: body.topic, tweetCount: body.tweet_count, platform: body.platform });
      return { tweets: r.tweets, model_degraded: r.modelDegraded };
    },
  }),
  route({
    ...GENERATION,
    method: 'post',
    path: '/posts/generate_carousel',
    summary: 'Generate a LinkedIn carousel (slides and a PDF document)',
    description:
      'Slides (title and body), a PDF with one 1080×1080 page per slide stored as media (publish it as a LinkedIn document post: ' +
      '`r2_key` goes in the post content metadata), and the caption. Needs a connected LinkedIn account: 422 INVALID_STATE when the ' +
      `workspace has none (or the given one is disconnected), 422 INVALID_PARAMETERS when social_account_id is not a LinkedIn account of the workspace. One quota unit. ${QUOTA_NOTE}`,
    bucket: 'generate_multi',
    body: GenerateCarouselBody,
    response: z
      .object({
        slides: z.array(SlideSchema),
        document: z.object({
          r2_key: z.string(),
          url: z.string(),
          page_count: z.number().int().describe('One page per slide'),
          content_type: z.literal('application/pdf'),
          size_bytes: z.number().int(),
        }),
        caption: z.string().describe('The post text, within LinkedIn’s 3000 characters'),
        social_account_id: z.number().int().describe('The LinkedIn account it is for'),
        model_degraded: modelDegraded,
      })
      .meta({ id: 'GeneratedCarousel' }),
    handle: async ({ clients, principal, body }) => {
      const r = await clients.generation.generateCarousel({
        workspaceId: principal.workspaceId,
        topic: body.topic,
        slideCount: body.slide_count ?? 0,
        angle: body.angle,
        socialAccountId: body.social_account_id,
      });
      const d = r.document!;
      return {
        slides: r.slides.map((s) => ({ title: s.title, body: s.body })),
        document: { r2_key: d.r2Key, url: d.url, page_count: d.pageCount, content_type: 'application/pdf' as const, size_bytes: d.sizeBytes },
        caption: r.caption,
        social_account_id: r.socialAccountId,
        model_degraded: r.modelDegraded,
      };
    },
  }),
  route({
    method: 'get',
    path: '/voice_profile',
    tag: 'AI generation',
    summary: "The workspace's voice profile",
    description:
      'Learned from the posted and approved posts (latest 200) and used by every generation. Cached for 10 minutes; `?refresh=true` learns it now. ' +
      'Any plan whose key has voice:read (reading it costs no generation).',
    audience: 'api_key',
    scope: 'voice:read',
    plan: 'any',
    query: z.object({ refresh: z.enum(['true', 'false']).optional().describe('Learn the profile now instead of using the cached one') }).strict(),
    status: 200,
    response: z.object({ voice_profile: VoiceProfileSchema }),
    handle: async ({ clients, principal, query }) => {
      const { voiceProfile: v } = await clients.generation.getVoiceProfile({ workspaceId: principal.workspaceId, refresh: query.refresh === 'true' });
      return {
        voice_profile: {
          sample_size: v!.sampleSize,
          average_length: v!.averageLength,
          median_length: v!.medianLength,
          average_lines: v!.averageLines,
          emoji_per_post: v!.emojiPerPost,
          hashtags_per_post: v!.hashtagsPerPost,
          top_hashtags: v!.topHashtags,
          frequent_phrases: v!.frequentPhrases,
          question_ratio: v!.questionRatio,
          exclamation_ratio: v!.exclamationRatio,
          list_ratio: v!.listRatio,
          tone: v!.tone,
          updated_at: v!.updatedAt,
        },
      };
    },
  }),
];
