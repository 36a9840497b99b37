import type { SandboxPlatform } from '../router.js';
import type { SandboxPost, SandboxState } from '../state.js';
import { channelError, SLACK_RULES, SLACK_TEXT_LIMIT, slackFail as fail, slackFileRoutes, slackOk as ok, slackParams as params } from './slack/files.js';

export { SLACK_IMAGE, SLACK_RULES, SLACK_UPLOAD_URL_LIFETIME_MS, SLACK_VIDEO } from './slack/files.js';

/**
 * Slack Web API (bot token bearer): POST chat.postMessage (JSON `{channel, text, blocks, thread_ts}`),
 * files.getUploadURLExternal + upload + files.completeUploadExternal and files.info (slack/files.ts),
 * GET conversations.info (`channel`: `is_member`), GET chat.getPermalink (`channel`, `message_ts`), GET conversations.history (`channel`, `oldest`,
 * `latest`, `inclusive`, `limit`; top-level messages, newest first, with `reactions` and
 * `reply_count`), POST chat.delete (`channel`, `ts`), GET auth.test, GET conversations.list (`cursor`; two pages). Every answer is HTTP 200 with
 * `{ok:true, …}` or `{ok:false, error}`. Message `ts` values are `seconds.micro` strings; the stored
 * post's id is its ts and its text is the (escaped) text as sent.
 */
let sequence = 0;
/** Every message gets the same reactions, so metrics are predictable: 4 + 1. */
const REACTIONS = [
  { name: 'thumbsup', count: 4, users: [] },
  { name: 'tada', count: 1, users: [] },
];

/** A ts at the current time with microsecond digits, unique within the process. */
const nextTs = () => `${(Date.now() / 1000).toFixed(3)}${String(sequence++ % 1000).padStart(3, '0')}`;

function invalidBlock(block: Record<string, unknown>): boolean {
  if (block.type === 'section') {
    const text = (block.text as { type?: unknown; text?: unknown } | undefined) ?? {};
    return !['mrkdwn', 'plain_text'].includes(String(text.type)) || typeof text.text !== 'string' || !text.text || text.text.length > 3000;
  }
  if (block.type === 'image') return typeof block.image_url !== 'string' || !block.image_url || typeof block.alt_text !== 'string';
  return true;
}

function messageIn(state: SandboxState, channel: unknown, ts: unknown): SandboxPost | undefined {
  const post = state.find('slack', String(ts));
  return post && post.details.channel === channel ? post : undefined;
}

function toMessage(post: SandboxPost, state: SandboxState) {
  const replies = state.postsOf('slack').filter((p) => p.details.thread_ts === post.id);
  const threadTs = post.details.thread_ts as string | undefined;
  return {
    type: 'message',
    user: `U${post.account.toUpperCase()}`,
    bot_id: `B${post.account.toUpperCase()}`,
    text: post.text,
    ts: post.id,
    ...(post.details.blocks ? { blocks: post.details.blocks } : {}),
    ...(post.media.length ? { files: (post.details.files as Array<{ id: string }>).map((f) => ({ id: f.id })) } : {}),
    ...(threadTs ? { thread_ts: threadTs, parent_user_id: `U${post.account.toUpperCase()}` } : {}),
    ...(replies.length ? { thread_ts: post.id, reply_count: replies.length, latest_reply: replies.at(-1)!.id } : {}),
    reactions: REACTIONS,
  };
}

export const slack: SandboxPlatform = {
  name: 'slack',
  unauthorized: () => fail('invalid_auth'),
  rules: SLACK_RULES,
  routes: [
    ...slackFileRoutes(() => nextTs()),
    {
      method: 'POST',
      path: '/chat.postMessage',
      creates: true,
      handle: (req, state) => {
        const { channel, text, blocks, thread_ts } = params(req) as { channel?: unknown; text?: unknown; blocks?: unknown; thread_ts?: unknown };
        const channelProblem = channelError(req.account!, channel);
        if (channelProblem) return fail(channelProblem);
        if (blocks !== undefined && (!Array.isArray(blocks) || !blocks.length || blocks.length > 50 || blocks.some((b) => invalidBlock(b as Record<string, unknown>)))) return fail('invalid_blocks');
        if ((typeof text !== 'string' || !text.trim()) && !blocks) return fail('no_text');
        if (typeof text === 'string' && text.length > SLACK_TEXT_LIMIT) return fail('msg_too_long');
        const post = state.createPost('slack', req.account!, typeof text === 'string' ? text : '', { channel, blocks, thread_ts }, nextTs());
        return ok({ channel, ts: post.id, message: toMessage(post, state) });
      },
    },
    {
      method: 'GET',
      path: '/chat.getPermalink',
      handle: (req, state) => {
        const { channel, message_ts } = params(req);
        const post = messageIn(state, channel, message_ts);
        if (!post) return fail('message_not_found');
        return ok({ channel, permalink: `https://${post.account}.slack.com/archives/${String(channel)}/p${post.id.replace('.', '')}` });
      },
    },
    {
      // Two pages (limit aside): the account's `chan-A` and a channel the bot is not in, then a private
      // channel it is in; archived channels are never listed (exclude_archived honoured by omission).
      method: 'GET',
      path: '/conversations.list',
      handle: (req) => {
        const a = req.account;
        const { cursor } = params(req);
        const channel = (id: string, name: string, is_private: boolean, is_member: boolean) => ({
          id,
          name,
          is_channel: !is_private,
          is_group: is_private,
          is_private,
          is_archived: false,
          is_member,
          num_members: 3,
        });
        if (cursor === undefined || cursor === '')
          return ok({ channels: [channel(`chan-${a}`, 'general', false, true), channel(`C-random-${a}`, 'random', false, false)], response_metadata: { next_cursor: 'page-2' } });
        if (cursor === 'page-2') return ok({ channels: [channel(`G-team-${a}`, 'team-news', true, true)], response_metadata: { next_cursor: '' } });
        return fail('invalid_cursor');
      },
    },
    {
      // One channel: `C-random-<account>` is one the bot is not in; `C-missing…` does not exist.
      method: 'GET',
      path: '/conversations.info',
      handle: (req) => {
        const { channel } = params(req);
        const problem = channelError(req.account!, channel);
        if (problem === 'channel_not_found') return fail(problem);
        const id = String(channel);
        return ok({ channel: { id, name: id, is_channel: id.startsWith('C'), is_private: !id.startsWith('C'), is_archived: false, is_member: problem === undefined } });
      },
    },
    {
      method: 'GET',
      path: '/conversations.history',
      handle: (req, state) => {
        const { channel, oldest, latest, inclusive, limit } = params(req) as Record<string, string | undefined>;
        if (!channel) return fail('channel_not_found');
        const from = Number(oldest ?? 0);
        const to = latest === undefined ? Infinity : Number(latest);
        const within = (ts: number) => (inclusive === 'true' || inclusive === '1' ? ts >= from && ts <= to : ts > from && ts < to);
        const top = state.postsOf('slack').filter((p) => p.details.channel === channel && !p.details.thread_ts && within(Number(p.id)));
        const max = Math.min(999, Math.max(1, Number(limit ?? 100)));
        const newestFirst = top.reverse();
        return ok({ messages: newestFirst.slice(0, max).map((p) => toMessage(p, state)), has_more: newestFirst.length > max, pin_count: 0 });
      },
    },
    {
      method: 'POST',
      path: '/chat.delete',
      handle: (req, state) => {
        const { channel, ts } = params(req);
        if (!messageIn(state, channel, ts)) return fail('message_not_found');
        state.remove('slack', String(ts));
        return ok({ channel, ts });
      },
    },
    {
      method: 'GET',
      path: '/auth.test',
      handle: (req) =>
        ok({
          url: `https://${req.account}.slack.com/`,
          team: req.account,
          user: `${req.account}_bot`,
          team_id: 'T0SANDBOX',
          user_id: `U${req.account!.toUpperCase()}`,
          bot_id: `B${req.account!.toUpperCase()}`,
          is_enterprise_install: false,
        }),
    },
  ],
};
