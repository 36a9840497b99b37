import type { CommunitiesSource, Community } from './communities.js';
import { callPlatform } from './http.js';
import { ConnectorError, type Connector, type ContentPart, type PostMetrics, type Published, type PublishRequest, type TargetAccount } from './types.js';

/**
 * Telegram Bot API: `POST /bot<token>/<method>` with a JSON body; answers `{ok:true, result}` or
 * `{ok:false, error_code, description, parameters:{retry_after}}` with `error_code` as the HTTP status.
 *
 * Credentials besides `access_token` (the bot token): `chat_id` (the channel or group the bot is an
 * admin of: `-100…` or `@channelname`) and, optionally, `channel_username` (a public channel's
 * username, for `https://t.me/<username>/<message_id>` permalinks; private supergroups and channels
 * get `https://t.me/c/<id>/<message_id>`; basic groups and private chats have no message links, so
 * their permalink is empty).
 *
 * Text goes as `sendMessage` with `parse_mode: HTML` (the text HTML-escaped); one image or video as
 * `sendPhoto` / `sendVideo`, 2–10 as `sendMediaGroup` (the caption on the first item only, each file
 * `attach://fileN`), the bytes uploaded in the request (multipart: photos up to 10 MB, videos up to
 * 50 MB, where a URL would allow 5 and 20; https://core.telegram.org/bots/api#sending-files); polls as `sendPoll` (Telegram has no long-running polls: `open_period` is at most 600 s, so the
 * poll stays open until closed by hand). Later parts reply to the previous part and the first comment
 * replies to the first part (`reply_parameters.message_id`).
 */
const TELEGRAM_UPLOAD_LIMITS = { photo: 10 * 1024 * 1024, video: 50 * 1024 * 1024 } as const;
const TELEGRAM_MAX_GROUP = 10;

/** A part's media: photos and videos only, at most 10 (one media group). */
function checkGroup(part: Pick<ContentPart, 'media'>): void {
  if (part.media.some((m) => m.type === 'document')) throw new ConnectorError('rejected', 'documents are not supported by the Telegram connector');
  if (part.media.length > TELEGRAM_MAX_GROUP) throw new ConnectorError('rejected', `Telegram takes at most ${TELEGRAM_MAX_GROUP} photos and videos per message group (${part.media.length} given)`);
}

export function telegramConnector(baseUrl = 'https://api.telegram.org'): Connector & CommunitiesSource {
  const chatOf = (t: TargetAccount): string => {
    const chatId = t.credentials.chat_id;
    if (!chatId) throw new ConnectorError('auth', 'the Telegram account has no chat_id: reconnect it');
    return chatId;
  };

  /**
   * One Bot API call. A malformed token answers 404 "Not Found" (every method we call exists), a
   * revoked one 401. On 429 Telegram gives the wait in the body (`parameters.retry_after`, seconds)
   * rather than a Retry-After header; callPlatform keeps the body only in the error message, so the
   * hint is read back from there. The token is in the path, which callPlatform's messages quote: it
   * is masked before any error leaves this module.
   */
  async function call<T>(target: TargetAccount, method: string, body?: Record<string, unknown> | FormData): Promise<T> {
    const token = target.credentials.access_token ?? '';
    const url = `${baseUrl}/bot${token}/${method}`;
    try {
      const answer = await callPlatform(url, { ...(body ? { method: 'POST', body } : {}), authStatuses: [401, 404], ...(body instanceof FormData ? { timeoutMs: 300_000 } : {}) });
      const reply = answer.body as { ok?: boolean; result?: T; error_code?: number; description?: string; parameters?: { retry_after?: number } };
      if (reply?.ok === true && reply.result !== undefined) return reply.result;
      const code = reply?.error_code ?? 0;
      const kind = code === 401 || code === 404 ? 'auth' : code === 429 ? 'rate_limited' : code >= 500 ? 'transient' : 'rejected';
      const wait = reply?.parameters?.retry_after;
      throw new ConnectorError(kind, `${method}: ${reply?.description ?? 'no result'}`, wait === undefined ? undefined : wait * 1000, code || answer.status);
    } catch (err) {
      if (!(err instanceof ConnectorError)) throw err;
      const message = token ? err.message.replaceAll(token, '<token>') : err.message;
      const seconds = err.kind === 'rate_limited' && err.retryAfterMs === undefined ? /"retry_after":\s*(\d+)/.exec(message)?.[1] : undefined;
      throw new ConnectorError(err.kind, message, seconds ? Number(seconds) * 1000 : err.retryAfterMs, err.status);
    }
  }

  const escapeHtml = (text: string) => text.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
  const caption = (text: string) => (text ? { caption: escapeHtml(text), parse_mode: 'HTML' } : {});
  const MEDIA_KIND = { image: 'photo', video: 'video' } as const;

  /** A multipart request: every field as a string (objects as JSON), every file as a part of its own name. */
  function form(fields: Record<string, unknown>, files: Array<{ name: string; bytes: Buffer; contentType: string }>): FormData {
    const out = new FormData();
    for (const [key, value] of Object.entries(fields)) out.append(key, typeof value === 'string' ? value : JSON.stringify(value));
    for (const f of files) out.append(f.name, new Blob([new Uint8Array(f.bytes)], { type: f.contentType }), f.name);
    return out;
  }

  /** The bytes of each item, checked against Telegram's upload limits before anything is sent. */
  async function filesOf(media: ContentPart['media']) {
    return Promise.all(
      media.map(async (m, i) => {
        const kind = MEDIA_KIND[m.type as 'image' | 'video'];
        const { bytes, contentType } = await m.read();
        const limit = TELEGRAM_UPLOAD_LIMITS[kind];
        if (bytes.length > limit) throw new ConnectorError('rejected', `the ${kind} is ${bytes.length} bytes: Telegram takes uploaded ${kind}s of at most ${limit / 1024 / 1024} MB`);
        return { kind, name: `file${i}`, bytes, contentType };
      }),
    );
  }

  /** Sends one part (as a reply to `replyTo` when given); answers the id of its (first) message. */
  async function sendPart(target: TargetAccount, part: Pick<ContentPart, 'body' | 'media' | 'poll'>, replyTo?: number): Promise<number> {
    const common = { chat_id: chatOf(target), ...(replyTo ? { reply_parameters: { message_id: replyTo } } : {}) };
    type Message = { message_id: number };
    if (part.poll) {
      const poll = { question: part.body, options: part.poll.options.map((text) => ({ text })) };
      return (await call<Message>(target, 'sendPoll', { ...common, ...poll })).message_id;
    }
    checkGroup(part);
    const files = await filesOf(part.media);
    if (files.length > 1) {
      const group = files.map((f, i) => ({ type: f.kind, media: `attach://${f.name}`, ...(i === 0 ? caption(part.body) : {}) }));
      const messages = await call<Message[]>(target, 'sendMediaGroup', form({ ...common, media: group }, files));
      return messages[0]!.message_id;
    }
    const [single] = files;
    if (single) {
      const method = single.kind === 'photo' ? 'sendPhoto' : 'sendVideo';
      return (await call<Message>(target, method, form({ ...common, ...caption(part.body) }, [{ ...single, name: single.kind }]))).message_id;
    }
    return (await call<Message>(target, 'sendMessage', { ...common, text: escapeHtml(part.body), parse_mode: 'HTML' })).message_id;
  }

  function permalink(target: TargetAccount, messageId: number | string): string {
    const chatId = chatOf(target);
    const username = (target.credentials.channel_username || (chatId.startsWith('@') ? chatId : '')).replace(/^@/, '');
    if (username) return `https://t.me/${username}/${messageId}`;
    const internal = /^-100(\d+)$/.exec(chatId)?.[1];
    return internal ? `https://t.me/c/${internal}/${messageId}` : '';
  }

  return {
    platform: 'telegram',
    // The Bot API lists no chats (a bot only learns them from updates): getChat answers the account's own chat.
    async communities(target: TargetAccount): Promise<Community[]> {
      const chat = await call<{ id: number; type: string; title?: string; username?: string }>(target, 'getChat', { chat_id: chatOf(target) });
      return [{ id: String(chat.id), name: chat.title ?? (chat.username ? `@${chat.username}` : String(chat.id)), kind: chat.type, current: true }];
    },
    // The Bot API cannot read a chat's history: a lost answer cannot be checked.
    canReconcile: false,

    async publish({ target, parts }: PublishRequest): Promise<Published> {
      let first: number | undefined;
      let previous: number | undefined;
      for (const part of parts) {
        previous = await sendPart(target, part, previous);
        first ??= previous;
      }
      if (first === undefined) throw new Error('nothing to publish');
      const comment = parts[0]?.firstComment;
      if (comment) await sendPart(target, { body: comment, media: [] }, first);
      return { platformPostId: String(first), permalink: permalink(target, first) };
    },

    /**
     * The Bot API has no way to read a chat's history (bots only see updates pushed to them, and
     * channel posts by the bot itself are not among them), so a post whose answer was lost cannot be
     * looked up: this always answers null. An `unknown_outcome` on Telegram therefore cannot be
     * reconciled; publishing again may post the message twice.
     */
    async findPublished(): Promise<Published | null> {
      return null;
    },

    async delete(target: TargetAccount, platformPostId: string): Promise<void> {
      await call<boolean>(target, 'deleteMessage', { chat_id: chatOf(target), message_id: Number(platformPostId) });
    },

    /** The Bot API exposes no view, reaction or forward counts for messages: none is known. */
    async fetchMetrics(): Promise<PostMetrics> {
      return { impressions: null, likes: null, replies: null, reposts: null, clicks: null };
    },

    async preflight({ parts }: PublishRequest): Promise<void> {
      for (const part of parts) checkGroup(part);
    },

    async validateCredentials(target: TargetAccount): Promise<boolean> {
      await call<{ id: number }>(target, 'getMe');
      return true;
    },
  };
}
