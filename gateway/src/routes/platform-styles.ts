import type { PlatformStyle } from '@spa/contracts/accounts/v1/platform_styles';
import { EMOJI_LEVELS, IMAGE_ASPECTS, LINE_BREAK_STYLES, MAX_CALL_TO_ACTION_TEXT, MAX_STYLE_HASHTAGS, type EmojiLevel, type ImageAspect, type LineBreakStyle } from '@spa/platforms';
import { PLATFORMS } from '@spa/vocabulary';
import { z } from 'zod';
import { route } from './route.js';
import { dateTime, int } from './schemas.js';

const PlatformStyleSchema = z
  .object({
    platform: z.enum(PLATFORMS),
    length_target: z.number().int().describe("Length generation aims for, counted the platform's way (1 to the platform's limit, its caption limit where lower)"),
    hashtag_count: z.number().int().describe(`Hashtags per post, 0 to ${MAX_STYLE_HASHTAGS}`),
    emoji: z.enum(EMOJI_LEVELS),
    line_breaks: z.enum(LINE_BREAK_STYLES).describe('none: one block; paragraphs: short paragraphs; every_sentence: a line per sentence'),
    call_to_action: z.boolean().describe('End posts with a call to action'),
    call_to_action_text: z.string().nullable().describe('The call to action to use; null lets generation write one'),
    image_aspect: z.enum(IMAGE_ASPECTS).describe('Width:height of images made or chosen for the platform'),
    customized: z.boolean().describe('False while every field is the default'),
    updated_at: dateTime.nullable().describe('Last change; null while the style is the default (never changed, or reset)'),
  })
  .meta({
    id: 'PlatformStyle',
    description:
      'The style every generation for the platform follows (POST /posts/generate, generate_from_idea, generate_batch, generate_thread, generate_carousel for LinkedIn, and content plan runs): ' +
      'the built-in composer applies it and an AI model is told it in its prompt. length_target replaces the writing target (the platform limit stays the hard cap); ' +
      "hashtag_count is the number of hashtags (fewer when the topic cannot give that many, or a 'max N hashtags' custom rule asks fewer); " +
      "emoji sets how many emoji where the include_emoji preference allows them (include_emoji false, or a 'no emoji' rule, means none); " +
      'line_breaks shapes the text (one block, paragraphs, a sentence per paragraph); call_to_action and call_to_action_text decide the closing (the text is used word for word, and closes threads and the last carousel slide); ' +
      "image_aspect (LinkedIn) shapes the pages of generated carousel PDFs. Defaults come from the platform's capabilities (GET /platforms) and habits.",
  });

const present = (s: PlatformStyle): z.infer<typeof PlatformStyleSchema> => ({
  platform: s.platform as z.infer<typeof PlatformStyleSchema>['platform'],
  length_target: s.lengthTarget,
  hashtag_count: s.hashtagCount,
  emoji: s.emoji as EmojiLevel,
  line_breaks: s.lineBreaks as LineBreakStyle,
  call_to_action: s.callToAction,
  call_to_action_text: s.callToActionText ?? null,
  image_aspect: s.imageAspect as ImageAspect,
  customized: s.customized,
  updated_at: s.updatedAt ?? null,
});

const PlatformParams = z.object({ platform: z.enum(PLATFORMS) });
const Envelope = z.object({ platform_style: PlatformStyleSchema });

const UpdateBody = z
  .object({
    platform_style: z
      .object({
        // The platform's own limit is checked by accounts; this bound only keeps the value a sane integer.
        length_target: int('int32', 1, 100_000).optional().describe("1 to the platform's limit"),
        hashtag_count: int('int32', 0, MAX_STYLE_HASHTAGS).optional(),
        emoji: z.enum(EMOJI_LEVELS).optional(),
        line_breaks: z.enum(LINE_BREAK_STYLES).optional(),
        call_to_action: z.boolean().optional(),
        call_to_action_text: z.string().trim().min(1).max(MAX_CALL_TO_ACTION_TEXT).nullable().optional().describe('null lets generation write the call to action'),
        image_aspect: z.enum(IMAGE_ASPECTS).optional(),
      })
      .strict()
      .refine((s) => Object.keys(s).length > 0, { message: 'name at least one field to change' }),
  })
  .strict();

export const platformStyleRoutes = [
  route({
    method: 'get',
    path: '/platform_styles',
    tag: 'Platform styles',
    summary: "List every platform's style",
    description: 'One entry per platform, in the platform list order; a platform never changed shows its defaults.',
    audience: 'api_key',
    scope: 'platform_styles:read',
    plan: 'paid',
    status: 200,
    response: z.object({ platform_styles: z.array(PlatformStyleSchema), meta: z.object({ total_count: z.number().int() }) }),
    handle: async ({ clients, principal }) => {
      const { platformStyles } = await clients.platformStyles.listPlatformStyles({ workspaceId: principal.workspaceId });
      return { platform_styles: platformStyles.map(present), meta: { total_count: platformStyles.length } };
    },
  }),
  route({
    method: 'get',
    path: '/platform_styles/{platform}',
    tag: 'Platform styles',
    summary: "Get a platform's style",
    audience: 'api_key',
    scope: 'platform_styles:read',
    plan: 'paid',
    params: PlatformParams,
    status: 200,
    response: Envelope,
    handle: async ({ clients, principal, params }) => {
      const { platformStyle } = await clients.platformStyles.getPlatformStyle({ workspaceId: principal.workspaceId, platform: params.platform });
      return { platform_style: present(platformStyle!) };
    },
  }),
  route({
    method: 'patch',
    path: '/platform_styles/{platform}',
    tag: 'Platform styles',
    summary: "Update a platform's style",
    description: "Only the fields given change. Every bad field is named at once (422 INVALID_PARAMETERS) and nothing is written then; length_target is bounded by the platform's limit.",
    audience: 'api_key',
    scope: 'platform_styles:write',
    plan: 'paid',
    params: PlatformParams,
    body: UpdateBody,
    bodyLimit: '16kb',
    status: 200,
    response: Envelope,
    handle: async ({ clients, principal, params, body }) => {
      const s = body.platform_style;
      const { platformStyle } = await clients.platformStyles.updatePlatformStyle({
        workspaceId: principal.workspaceId,
        platform: params.platform,
        lengthTarget: s.length_target,
        hashtagCount: s.hashtag_count,
        emoji: s.emoji,
        lineBreaks: s.line_breaks,
        callToAction: s.call_to_action,
        callToActionText: s.call_to_action_text ?? undefined,
        clearCallToActionText: s.call_to_action_text === null,
        imageAspect: s.image_aspect,
      });
      return { platform_style: present(platformStyle!) };
    },
  }),
  route({
    method: 'post',
    path: '/platform_styles/{platform}/reset',
    tag: 'Platform styles',
    summary: "Reset a platform's style to its defaults",
    description: 'Answers the default style (customized false, updated_at null). Resetting a style that was never changed is harmless.',
    audience: 'api_key',
    scope: 'platform_styles:write',
    plan: 'paid',
    params: PlatformParams,
    status: 200,
    response: Envelope,
    handle: async ({ clients, principal, params }) => {
      const { platformStyle } = await clients.platformStyles.resetPlatformStyle({ workspaceId: principal.workspaceId, platform: params.platform });
      return { platform_style: present(platformStyle!) };
    },
  }),
];
