import { presentCapabilities } from '@spa/platforms';
import { CONTENT_TYPES, PLATFORMS } from '@spa/vocabulary';
import { z } from 'zod';
import { route } from './route.js';

const int = () => z.number().int();
const mediaRule = z.object({
  content_types: z.array(z.string()).describe('Types published as they are; `type/*` accepts any subtype'),
  converted_from: z.array(z.string()).optional().describe('Other types the media pipeline converts to the first of `content_types` at publish; any type in neither list is refused'),
  max_bytes: int(),
  min_width: int().optional(),
  min_height: int().optional(),
  max_width: int().optional(),
  max_height: int().optional(),
  max_pixels: int().optional(),
  min_aspect_ratio: z.number().optional().describe('Width / height. Images outside the range are padded at publish (or cropped with metadata.media_fit "crop")'),
  max_aspect_ratio: z.number().optional().describe('Width / height'),
  min_duration_s: z.number().optional().describe('Videos: a shorter video is refused (never stretched)'),
  max_duration_s: z.number().optional().describe('Videos: a longer video is refused (never cut)'),
  min_fps: z.number().optional(),
  max_fps: z.number().optional().describe('Videos: a faster video is converted to this frame rate'),
  video_codecs: z.array(z.string()).optional().describe('Videos in another codec are converted to H.264'),
  audio_codecs: z.array(z.string()).optional().describe('Audio in another codec is converted to AAC'),
  max_frames: int().optional().describe('Animated images: 1 means an animation is published as its first frame'),
});

const PlatformSchema = z
  .object({
    platform: z.enum(PLATFORMS),
    display_name: z.string(),
    character_limit: z.number().int(),
    counting: z.enum(['weighted', 'graphemes', 'characters']).describe('weighted: X rules (a URL counts 23, CJK and emoji 2); graphemes: user-perceived characters; characters: Unicode code points'),
    byte_limit: z.number().int().optional(),
    caption_limit: z.number().int().optional().describe('Limit of the text when media is attached'),
    title_limit: z.number().int().optional(),
    content_types: z.array(z.enum(CONTENT_TYPES)).describe('Only what the platform can publish'),
    media_required: z.boolean(),
    max_images: z.number().int().optional(),
    media: z.object({ image: mediaRule.optional(), video: mediaRule.optional(), document: mediaRule.optional() }).optional(),
    poll: z.object({ min_options: z.number().int(), max_options: z.number().int(), option_max_characters: z.number().int() }).optional(),
    first_comment: z.boolean(),
    threads: z.boolean(),
    options: z.array(z.string()).describe('The post-content `metadata` fields this platform reads (board_id, privacy_level, title...)'),
  })
  .meta({ id: 'PlatformCapabilities', description: 'Fields that do not apply to a platform are omitted.' });

export const platformRoutes = [
  route({
    method: 'get',
    path: '/platforms',
    tag: 'Platforms',
    summary: 'Capabilities of each platform',
    description: 'The same table validates every post create and update: a content that breaks it is 422 with one detail per problem, naming the platform.',
    audience: 'api_key',
    scope: 'posts:read',
    plan: 'paid',
    status: 200,
    response: z.object({ platforms: z.array(PlatformSchema) }),
    handle: async () => ({ platforms: presentCapabilities() }),
  }),
];
