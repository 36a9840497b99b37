import { MAX_COMMUNITIES, type CommunitiesSource, type Community } from './communities.js';
import { callPlatform } from './http.js';
import { ConnectorError, type Connector, type ContentPart, type PostMetrics, type Published, type PublishRequest, type TargetAccount } from './types.js';

/**
 * Slack Web API (bot token `xoxb-…` as a bearer; scopes `chat:write` and `channels:history` /
 * `groups:history`).
 *
 * Credentials besides `access_token`: `channel_id`, the conversation id (`C…`) the bot is a member of.
 *
 * A post is `chat.postMessage` (`text`, HTML-like characters escaped as Slack requires; with images,
 * `blocks`: a mrkdwn section plus one `image` block per public media URL). Later parts and the first
 * comment are replies in the message's thread (`thread_ts`). The permalink comes from
 * `chat.getPermalink`; metrics are the message's reactions (likes) and `reply_count` (replies).
 *
 * Slack answers most failures with HTTP 200 and `{ok:false, error}`: a dead token → auth,
 * `ratelimited` → rate_limited, anything else → rejected. HTTP 429 + Retry-After is callPlatform's.
 */
const AUTH_ERRORS = new Set(['invalid_auth', 'not_authed', 'token_revoked', 'token_expired', 'account_inactive']);

interface SlackMessage {
  ts: string;
  text?: string;
  reply_count?: number;
  reactions?: Array<{ count: number }>;
}

export function slackConnector(baseUrl = 'https://slack.com/api'): Connector & CommunitiesSource {
  const channelOf = (t: TargetAccount): string => {
    const channel = t.credentials.channel_id;
    if (!channel) throw new ConnectorError('auth', 'the Slack account has no channel_id: reconnect it');
    return channel;
  };

  /** One Web API method: reads as GET with query parameters, writes as POST with a JSON body. */
  async function call<T>(target: TargetAccount, method: string, params: Record<string, unknown>, verb: 'GET' | 'POST' = 'GET'): Promise<T> {
    const headers = { authorization: `Bearer ${target.credentials.access_token}` };
    const answer =
      verb === 'GET'
        ? await callPlatform(`${baseUrl}/${method}?${new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]))}`, { headers })
        : await callPlatform(`${baseUrl}/${method}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json; charset=utf-8' }, body: params });
    const reply = answer.body as { ok?: boolean; error?: string } | undefined;
    if (reply?.ok === true) return reply as T;
    const error = reply?.error ?? 'no answer';
    const kind = AUTH_ERRORS.has(error) ? 'auth' : error === 'ratelimited' ? 'rate_limited' : 'rejected';
    const retryAfter = answer.headers.get('retry-after');
    throw new ConnectorError(kind, `${method}: ${error}`, kind === 'rate_limited' && retryAfter ? Number(retryAfter) * 1000 : undefined, answer.status);
  }

  /** Slack's three control characters in message text. */
  const escapeText = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

  function message(part: Pick<ContentPart, 'body' | 'media' | 'poll'>): { text: string; blocks?: unknown[] } {
    if (part.poll) throw new ConnectorError('rejected', 'Slack has no polls');
    const text = escapeText(part.body);
    const images = part.media.map((m) => {
      if (m.type !== 'image') throw new ConnectorError('rejected', `${m.type} media are not supported by the Slack connector (images only)`);
      return { type: 'image', image_url: m.url, alt_text: m.r2Key.split('/').pop() || 'image' };
    });
    if (!images.length) return { text };
    return { text, blocks: [...(text ? [{ type: 'section', text: { type: 'mrkdwn', text } }] : []), ...images] };
  }

  async function post(target: TargetAccount, part: Pick<ContentPart, 'body' | 'media' | 'poll'>, threadTs?: string): Promise<string> {
    const answer = await call<{ ts: string }>(target, 'chat.postMessage', { channel: channelOf(target), ...message(part), ...(threadTs ? { thread_ts: threadTs } : {}) }, 'POST');
    return answer.ts;
  }

  /** The message's permalink; '' when Slack will not say (the post exists: failing here would make it be posted again). */
  async function permalink(target: TargetAccount, ts: string): Promise<string> {
    return call<{ permalink: string }>(target, 'chat.getPermalink', { channel: channelOf(target), message_ts: ts }).then(
      (a) => a.permalink,
      () => '',
    );
  }

  return {
    platform: 'slack',
    // conversations.list (public and private, not archived, followed through next_cursor): the channels the bot is a member of.
    async communities(target: TargetAccount): Promise<Community[]> {
      const out: Community[] = [];
      let cursor = '';
      do {
        const page = await call<{ channels?: Array<{ id: string; name: string; is_private?: boolean; is_member?: boolean }>; response_metadata?: { next_cursor?: string } }>(
          target,
          'conversations.list',
          {
            types: 'public_channel,private_channel',
            exclude_archived: true,
            limit: 200,
            ...(cursor ? { cursor } : {}),
          },
        );
        for (const c of page.channels ?? []) {
          if (c.is_member) out.push({ id: c.id, name: c.name, kind: c.is_private ? 'private_channel' : 'public_channel', current: c.id === target.credentials.channel_id });
        }
        cursor = page.response_metadata?.next_cursor ?? '';
      } while (cursor && out.length < MAX_COMMUNITIES);
      return out.slice(0, MAX_COMMUNITIES);
    },

    async publish({ target, parts }: PublishRequest): Promise<Published> {
      const [first, ...rest] = parts;
      if (!first) throw new Error('nothing to publish');
      const ts = await post(target, first);
      for (const part of rest) await post(target, part, ts);
      if (first.firstComment) await post(target, { body: first.firstComment, media: [] }, ts);
      return { platformPostId: ts, permalink: await permalink(target, ts) };
    },

    /** Top-level messages since `since` (one page: non-Marketplace apps get at most 15 per call). */
    async findPublished({ target, parts }: PublishRequest, since: Date): Promise<Published | null> {
      const oldest = (since.getTime() / 1000).toFixed(6);
      const { messages } = await call<{ messages: SlackMessage[] }>(target, 'conversations.history', { channel: channelOf(target), oldest, limit: 15 });
      const text = escapeText(parts[0]?.body ?? '');
      const found = messages.find((m) => m.text === text);
      return found ? { platformPostId: found.ts, permalink: await permalink(target, found.ts) } : null;
    },

    async delete(target: TargetAccount, platformPostId: string): Promise<void> {
      await call(target, 'chat.delete', { channel: channelOf(target), ts: platformPostId }, 'POST');
    },

    async fetchMetrics(target: TargetAccount, platformPostId: string): Promise<PostMetrics> {
      const params = { channel: channelOf(target), latest: platformPostId, inclusive: true, limit: 1 };
      const { messages } = await call<{ messages: SlackMessage[] }>(target, 'conversations.history', params);
      const found = messages.find((m) => m.ts === platformPostId);
      if (!found) throw new ConnectorError('rejected', `conversations.history: message ${platformPostId} not found`);
      const likes = (found.reactions ?? []).reduce((sum, r) => sum + r.count, 0);
      return { impressions: 0, likes, replies: found.reply_count ?? 0, reposts: 0, clicks: 0 };
    },

    async validateCredentials(target: TargetAccount): Promise<boolean> {
      await call(target, 'auth.test', {});
      return true;
    },
  };
}
