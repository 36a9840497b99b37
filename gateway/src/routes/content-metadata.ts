import {
  CAPABILITIES,
  MAX_BOARD_ID_LENGTH,
  MAX_LINK_LENGTH,
  MEDIA_FITS,
  POLL_MINUTES,
  PLATFORM_OPTION_FIELDS,
  TIKTOK_PRIVACY_LEVELS,
  YOUTUBE_PRIVACY_STATUSES,
  postOptionProblems,
  type PostOptionKey,
} from '@spa/platforms';
import { PLATFORMS, type Platform } from '@spa/vocabulary';
import { z } from 'zod';

/**
 * A post content's `metadata`: its media, poll, LinkedIn asset and the per-platform choices (board, link, title,
 * privacy, media fit). Every field is documented here with the JSON Schema a client reads; the checks are the one
 * set in @spa/platforms (checkPostOptions), applied by `refinePostOptions` with the content's platform, so the
 * gateway and the posts service refuse the same things with the same words.
 */

const readersOf = (field: PostOptionKey): Platform[] => PLATFORMS.filter((p) => PLATFORM_OPTION_FIELDS[p].includes(field));
const platformsNote = (field: PostOptionKey) => {
  const who = readersOf(field);
  return who.length > 2 ? `Read by every platform except ${PLATFORMS.filter((p) => !who.includes(p)).join(', ')}` : `Read by ${who.join(' and ')} only`;
};

/** A documented field whose value the refinement checks (z.unknown keeps the one set of rules and messages). */
const documented = (json: Record<string, unknown>, description: string) =>
  z
    .unknown()
    .optional()
    .meta({ ...json, description });

const option = (field: PostOptionKey, json: Record<string, unknown>, description: string) =>
  documented(json, `${description} ${platformsNote(field)}; on any other platform the field is refused (422 naming it).`);

const titleLimits = readersOf('title')
  .map((p) => `${p} ${CAPABILITIES[p].title_limit ?? '—'}`)
  .join(', ');

export const ContentMetadataSchema = z
  .object({
    media: documented(
      {
        type: 'array',
        items: {
          type: 'object',
          required: ['r2_key', 'type'],
          properties: { r2_key: { type: 'string', description: 'Key of an upload (POST /media/uploads)' }, type: { type: 'string', enum: ['image', 'video', 'document'] } },
        },
      },
      'Media of this content, each an upload by r2_key, published in this order. What the platform takes as is, converts or refuses is in GET /platforms (media, media_handling).',
    ),
    poll: documented(
      {
        type: 'object',
        required: ['options'],
        properties: {
          options: { type: 'array', items: { type: 'string' } },
          duration_minutes: {
            type: 'integer',
            format: 'int32',
            minimum: POLL_MINUTES.min,
            maximum: POLL_MINUTES.max,
            description: `Default 1440; ${POLL_MINUTES.min} to ${POLL_MINUTES.max} (14 days; X takes at most 10080)`,
          },
        },
      },
      "A poll (twitter, linkedin): its options within GET /platforms' poll rules; no media beside it.",
    ),
    asset_urn: documented({ type: 'string' }, 'linkedin: an asset uploaded with POST /linkedin/uploads (urn:li:image:… or urn:li:video:…), by the same account.'),
    board_id: option(
      'board_id',
      { type: 'string', pattern: '^\\d+$', minLength: 1, maxLength: MAX_BOARD_ID_LENGTH, examples: ['549755885175'] },
      "The board the pin goes to: the id (digits) of one of the account's boards, as GET /pinterest/boards lists them. Default: the account's default board (the first listed when it was connected). A dry run and the publish check it is still one of the account's boards.",
    ),
    link: option(
      'link',
      { type: 'string', format: 'uri', maxLength: MAX_LINK_LENGTH },
      `Where the pin leads: an http(s) URL of at most ${MAX_LINK_LENGTH} characters. Default: the first http(s) URL in the body, else none.`,
    ),
    title: option(
      'title',
      { type: 'string', minLength: 1 },
      `The pin's or the video's title, at most the platform's title_limit in characters (${titleLimits}); YouTube refuses < and >. Default: the first line of the body, cut to the limit (a YouTube video with neither is refused).`,
    ),
    privacy_level: option(
      'privacy_level',
      { type: 'string', enum: [...TIKTOK_PRIVACY_LEVELS] },
      "Who sees the TikTok post. Required on every TikTok content, with no default: TikTok's own rules forbid one (a content without it is 422). It must also be one of the creator's privacy_level_options (GET /tiktok/creator_info), checked by the dry run and at publish.",
    ),
    disable_comment: option(
      'disable_comment',
      { type: 'boolean' },
      'Turn comments off on the TikTok post. Default false; a creator who disabled comments in their settings (GET /tiktok/creator_info) overrides it.',
    ),
    disable_duet: option('disable_duet', { type: 'boolean' }, "Turn duets off on the TikTok video. Default false; the creator's own setting overrides it."),
    disable_stitch: option('disable_stitch', { type: 'boolean' }, "Turn stitches off on the TikTok video. Default false; the creator's own setting overrides it."),
    privacy_status: option('privacy_status', { type: 'string', enum: [...YOUTUBE_PRIVACY_STATUSES] }, 'Who sees the YouTube video. Default public.'),
    media_fit: option(
      'media_fit',
      { type: 'string', enum: [...MEDIA_FITS] },
      "How an image whose aspect ratio is outside the platform's range is made to fit: pad (default: the whole image, with bars) or crop (the centre, filling the frame).",
    ),
  })
  .catchall(z.unknown())
  .meta({
    id: 'PostContentMetadata',
    // The first is the example of a content; the others show each platform's choices.
    examples: [
      { media: [{ r2_key: 'ws/1/2026/03/example.jpg', type: 'image' }] },
      { media: [{ r2_key: 'ws/1/2026/03/example.jpg', type: 'image' }], board_id: '549755885175', link: 'https://example.com/articles/launch', title: 'Our launch', media_fit: 'crop' },
      { media: [{ r2_key: 'ws/1/2026/03/example.mp4', type: 'video' }], privacy_level: 'PUBLIC_TO_EVERYONE', disable_duet: true },
      { media: [{ r2_key: 'ws/1/2026/03/example.mp4', type: 'video' }], title: 'Our launch', privacy_status: 'unlisted' },
    ],
    description:
      "The content's media and per-platform choices. Each choice is read by the platforms named in its description; on another platform it is refused with 422 INVALID_PARAMETERS naming the field (e.g. `post_contents[0].metadata.board_id: only pinterest reads board_id; twitter does not`). Other keys are kept as given.",
  });

/** Adds one issue per option problem of a content for `platform`, at `metadata.<field>` (the gateway's 422 names it). */
export function refinePostOptions(content: { platform: Platform; metadata?: Record<string, unknown> | undefined }, ctx: z.RefinementCtx): void {
  for (const p of postOptionProblems(content.platform, content.metadata)) ctx.addIssue({ code: 'custom', path: ['metadata', p.field], message: p.message });
}
