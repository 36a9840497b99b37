import { MAX_COMMUNITIES, type CommunitiesSource, type Community } from './communities.js';
import { callPlatform } from './http.js';
import { ConnectorError, postGone, type Connector, type ContentPart, type MediaItem, type PostMetrics, type Published, type PublishRequest, type TargetAccount } from './types.js';

/**
 * Slack Web API (bot token `xoxb-…` as a bearer; scopes `chat:write`, `files:write`, `channels:read` /
 * `groups:read` (conversations.info in preflight) and `channels:history` / `groups:history`).
 *
 * Credentials besides `access_token`: `channel_id`, the conversation id (`C…`) the bot is a member of.
 *
 * A text post is `chat.postMessage` (`text`, HTML-like characters escaped as Slack requires). A post with
 * media (images, videos) goes through Slack's external upload (scope `files:write`): per file
 * `files.getUploadURLExternal` (filename, length) and its bytes POSTed to the upload URL, then one
 * `files.completeUploadExternal` shares every file in the channel with the text as `initial_comment`;
 * the message's ts is read from the files' shares (files.info while Slack is still sharing). Later parts and the first
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
  /** `tombstone`: a deleted message kept in place of its thread's parent. */
  subtype?: string;
}

interface SlackFile {
  id: string;
  shares?: Partial<Record<'public' | 'private', Record<string, Array<{ ts: string }>>>>;
}

const tsOfShare = (file: SlackFile | undefined, channel: string): string | undefined => file?.shares?.public?.[channel]?.[0]?.ts ?? file?.shares?.private?.[channel]?.[0]?.ts;

export interface SlackOptions {
  /** How long to wait for Slack to share uploaded files in the channel (files.info polled), ms. */
  shareWaitMs: number;
  shareIntervalMs: number;
  /** Time allowed for one file's bytes to reach the upload URL, ms. */
  uploadTimeoutMs: number;
}

const DEFAULTS: SlackOptions = { shareWaitMs: 30_000, shareIntervalMs: 1000, uploadTimeoutMs: 300_000 };

export function slackConnector(baseUrl = 'https://slack.com/api', overrides: Partial<SlackOptions> = {}): Connector & CommunitiesSource {
  const options = { ...DEFAULTS, ...overrides };
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

  /** One file through the external upload: an upload URL for its length, then its bytes POSTed there. Answers the file id. */
  async function uploadFile(target: TargetAccount, item: MediaItem): Promise<{ id: string; title: string }> {
    const { bytes } = await item.read();
    const filename = item.r2Key.split('/').pop() || `${item.type}`;
    const { upload_url, file_id } = await call<{ upload_url: string; file_id: string }>(target, 'files.getUploadURLExternal', { filename, length: bytes.length }, 'POST');
    // Slack answers 200 when the bytes are in; anything else (an expired URL, a length other than declared) fails the upload.
    await callPlatform(upload_url, { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: bytes, timeoutMs: options.uploadTimeoutMs });
    return { id: file_id, title: filename };
  }

  /**
   * The ts of the message that shared the files: from completeUploadExternal's answer, or, while Slack is
   * still sharing them, from files.info polled every `shareIntervalMs` for at most `shareWaitMs`.
   */
  async function sharedTs(target: TargetAccount, files: SlackFile[], fileId: string): Promise<string> {
    const deadline = Date.now() + options.shareWaitMs;
    let current = files.find((f) => f.id === fileId);
    for (;;) {
      const ts = tsOfShare(current, channelOf(target));
      if (ts) return ts;
      if (Date.now() >= deadline) throw new ConnectorError('unknown_outcome', `files.completeUploadExternal: file ${fileId} not shared in the channel after ${options.shareWaitMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, options.shareIntervalMs));
      current = (await call<{ file: SlackFile }>(target, 'files.info', { file: fileId })).file;
    }
  }

  /** Posts one part: a message (chat.postMessage), or its files shared with the text as their message (external upload). */
  async function post(target: TargetAccount, part: Pick<ContentPart, 'body' | 'media' | 'poll'>, threadTs?: string): Promise<string> {
    if (part.poll) throw new ConnectorError('rejected', 'Slack has no polls');
    const text = escapeText(part.body);
    const thread = threadTs ? { thread_ts: threadTs } : {};
    if (!part.media.length) return (await call<{ ts: string }>(target, 'chat.postMessage', { channel: channelOf(target), text, ...thread }, 'POST')).ts;
    const files: Array<{ id: string; title: string }> = [];
    for (const item of part.media) files.push(await uploadFile(target, item));
    const params = { files, channel_id: channelOf(target), ...(text ? { initial_comment: text } : {}), ...thread };
    const answer = await call<{ files?: SlackFile[] }>(target, 'files.completeUploadExternal', params, 'POST');
    return sharedTs(target, answer.files ?? [], files[0]!.id);
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
      // A deleted message is left out of the history, or kept as a tombstone while its thread has replies.
      if (!found || found.subtype === 'tombstone') throw postGone(`conversations.history: message ${platformPostId} no longer exists`);
      const likes = (found.reactions ?? []).reduce((sum, r) => sum + r.count, 0);
      // Slack reports no views, shares or clicks of a message.
      return { impressions: null, likes, replies: found.reply_count ?? 0, reposts: null, clicks: null };
    },

    /** conversations.info (read-only): the bot must be a member of the channel, or Slack answers not_in_channel at publish. */
    async preflight({ target, parts }: PublishRequest): Promise<void> {
      if (parts.some((p) => p.poll)) throw new ConnectorError('rejected', 'Slack has no polls');
      const info = await call<{ channel: { is_member?: boolean } }>(target, 'conversations.info', { channel: channelOf(target) }).catch((err: unknown) => {
        // An install from before the read scopes cannot be asked: the publish itself will tell.
        if (err instanceof ConnectorError && err.message.endsWith(': missing_scope')) return undefined;
        throw err;
      });
      if (info?.channel.is_member === false) throw new ConnectorError('rejected', `conversations.info: not_in_channel (the app is not a member of ${channelOf(target)}: invite it)`);
    },

    async validateCredentials(target: TargetAccount): Promise<boolean> {
      await call(target, 'auth.test', {});
      return true;
    },
  };
}
