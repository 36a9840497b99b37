import { z } from 'zod';
import { route } from './route.js';
import { idParam } from './schemas.js';

const CommunitySchema = z
  .object({
    id: z.string().describe("The platform's id of the channel or chat"),
    name: z.string(),
    kind: z.string().describe('text_channel or announcement_channel (Discord); public_channel or private_channel (Slack); channel, group or supergroup (Telegram)'),
    current: z.boolean().describe('The one the account posts to'),
  })
  .meta({ id: 'Community' });

export const communityRoutes = [
  route({
    method: 'get',
    path: '/communities',
    tag: 'Accounts',
    summary: 'The places a connected account can post into',
    description:
      "Listed live from the platform, per platform: **Discord**: the text and announcement channels of the server the account is connected to (`GET /guilds/{guild.id}/channels`; voice channels and categories take no messages and are left out). **Slack**: the public and private channels, not archived, that the bot is a member of (`conversations.list`, every page). **Telegram**: the chat the bot posts to (`getChat`): the Bot API offers no list of a bot's chats. Other platforms have no such places: 422 `PLATFORM_UNSUPPORTED` (Facebook Pages, LinkedIn pages and Pinterest boards are separate accounts or have their own endpoint, `GET /pinterest/boards`). At most 1000. 404 for another workspace's account; a token the platform refuses is 422 `INVALID_STATE` (the account is marked disconnected).",
    audience: 'api_key',
    scope: 'communities:read',
    plan: 'paid',
    query: z.object({ social_account_id: idParam }).strict(),
    status: 200,
    errors: ['PLATFORM_UNSUPPORTED', 'INVALID_STATE', 'SERVICE_UNAVAILABLE'],
    response: z.object({ communities: z.array(CommunitySchema), meta: z.object({ total_count: z.number().int() }) }),
    handle: async ({ clients, principal, query }) => {
      const { communities } = await clients.publisher.listCommunities({ workspaceId: principal.workspaceId, socialAccountId: query.social_account_id });
      return { communities: communities.map((c) => ({ id: c.id, name: c.name, kind: c.kind, current: c.current })), meta: { total_count: communities.length } };
    },
  }),
];
