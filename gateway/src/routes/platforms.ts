import { presentCapabilities } from '@spa/platforms';
import { CONTENT_TYPES, PLATFORMS } from '@spa/vocabulary';
import { z } from 'zod';
import { route } from './route.js';

const mediaRule = z.object({ content_types: z.array(z.string()), max_bytes: z.number().int() });

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
