import { AppError } from '@spa/errors';
import { z } from 'zod';
import { route } from './route.js';
import { idParam } from './schemas.js';

/** Lookups a platform answers about one connected account, through the publisher's connectors. */
export const accountLookupRoutes = [
  route({
    method: 'get',
    path: '/tiktok/creator_info',
    tag: 'Accounts',
    summary: "A TikTok account's creator info",
    description:
      'Asked of TikTok each time (its `POST /v2/post/publish/creator_info/query/`; TikTok allows 20 per minute per account). ' +
      "`comment_disabled`, `duet_disabled` and `stitch_disabled` are the creator's own settings: at publish time they override the " +
      "post's `metadata.disable_comment` / `disable_duet` / `disable_stitch`, and a video longer than `max_video_post_duration_sec` " +
      'fails its target before anything is sent to TikTok. 404 when the account is not a TikTok account of this workspace; ' +
      '422 INVALID_STATE when TikTok refuses its token (the account is marked disconnected).',
    audience: 'api_key',
    scope: 'accounts:read',
    plan: 'paid',
    query: z.object({ social_account_id: idParam }).strict(),
    status: 200,
    response: z
      .object({
        nickname: z.string(),
        username: z.string(),
        avatar_url: z.string(),
        privacy_level_options: z.array(z.string()),
        comment_disabled: z.boolean(),
        duet_disabled: z.boolean(),
        stitch_disabled: z.boolean(),
        max_video_post_duration_sec: z.number().int(),
      })
      .meta({ id: 'TikTokCreatorInfo' }),
    handle: async ({ clients, principal, query }) => {
      const c = await clients.publisher.getTikTokCreatorInfo({ workspaceId: principal.workspaceId, socialAccountId: query.social_account_id });
      return {
        nickname: c.nickname,
        username: c.username,
        avatar_url: c.avatarUrl,
        privacy_level_options: c.privacyLevelOptions,
        comment_disabled: c.commentDisabled,
        duet_disabled: c.duetDisabled,
        stitch_disabled: c.stitchDisabled,
        max_video_post_duration_sec: c.maxVideoPostDurationSec,
      };
    },
  }),
  route({
    method: 'get',
    path: '/pinterest/boards',
    tag: 'Accounts',
    summary: "A Pinterest account's boards",
    description:
      "Asked of Pinterest each time (its `GET /v5/boards`, every page, at most 1000 boards). A board's `id` is what a content plan's " +
      'Pinterest channel takes as `board_id`. 404 when the account is not a Pinterest account of this workspace; 422 INVALID_STATE ' +
      'when Pinterest refuses its token (the account is marked disconnected).',
    audience: 'api_key',
    scope: 'accounts:read',
    plan: 'paid',
    query: z.object({ social_account_id: idParam }).strict(),
    status: 200,
    response: z.object({
      boards: z.array(z.object({ id: z.string(), name: z.string(), description: z.string().nullable(), privacy: z.string().describe('PUBLIC, PROTECTED or SECRET') }).meta({ id: 'PinterestBoard' })),
    }),
    handle: async ({ clients, principal, query }) => {
      const { boards } = await clients.publisher.listPinterestBoards({ workspaceId: principal.workspaceId, socialAccountId: query.social_account_id });
      return { boards: boards.map((b) => ({ id: b.id, name: b.name, description: b.description ?? null, privacy: b.privacy })) };
    },
  }),
  route({
    method: 'get',
    path: '/instagram/audio',
    tag: 'Accounts',
    summary: 'Search Instagram audio (not offered by Instagram)',
    description:
      "Instagram's APIs (the Instagram Graph API and Instagram API with Instagram Login) have no endpoint that searches or lists the " +
      'music and audio library: reels can only be published with their own soundtrack. So that no data is invented, this answers 422 ' +
      '`PLATFORM_UNSUPPORTED` for an Instagram account of the workspace (after checking it is one: 404 otherwise). No other platform ' +
      'we publish to offers an audio search either.',
    audience: 'api_key',
    scope: 'accounts:read',
    plan: 'paid',
    query: z.object({ social_account_id: idParam, q: z.string().min(1).max(200).optional().describe('What to search for') }).strict(),
    status: 200,
    response: z.object({ audio: z.array(z.object({ id: z.string(), title: z.string() })) }),
    handle: async ({ clients, principal, query }) => {
      const { socialAccounts } = await clients.accounts.listSocialAccounts({ workspaceId: principal.workspaceId, ids: [query.social_account_id] });
      if (socialAccounts[0]?.platform !== 'instagram') throw new AppError('NOT_FOUND', `Instagram account ${query.social_account_id} not found`);
      throw new AppError('PLATFORM_UNSUPPORTED', "Instagram's API offers no audio search: reels are published with their own soundtrack");
    },
  }),
];
