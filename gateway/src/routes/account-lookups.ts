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
      "Asked of TikTok each time (its `POST /v2/post/publish/creator_info/query/`; TikTok allows 20 per minute per account). " +
      '`comment_disabled`, `duet_disabled` and `stitch_disabled` are the creator\'s own settings: at publish time they override the ' +
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
];
