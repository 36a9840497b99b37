import { MAX_COMMUNITIES, type CommunitiesSource, type Community } from './communities.js';
import { callPlatform, field } from './http.js';
import { ConnectorError, type Connector, type ContentPart, type PostMetrics, type Published, type PublishRequest, type TargetAccount } from './types.js';

/**
 * Discord (REST API v10), in one of two ways, as the account was connected:
 * - **Incoming webhook** (what the OAuth `webhook.incoming` connect stores: `webhook_id`, `webhook_token`,
 *   `channel_id`, `guild_id`): Execute Webhook, `POST /webhooks/{id}/{token}?wait=true` (no Authorization
 *   header; `wait=true` answers the Message), and `GET`/`DELETE /webhooks/{id}/{token}/messages/{m}`. A
 *   webhook cannot open a thread on a message or list the channel, so later parts and the first comment
 *   follow as messages in the channel, and a lost answer cannot be looked up (findPublished answers null).
 *   A deleted webhook (404 Unknown Webhook) or a bad token (401) is `auth`. The token is in the path: it
 *   is masked before any error leaves this module.
 * - **Bot** (`Authorization: Bot <access_token>`, `channel_id`, `guild_id`): `POST /channels/{c}/messages`;
 *   later parts and the first comment go into a thread opened on that message
 *   (`POST /channels/{c}/messages/{m}/threads`).
 * Messages are JSON `{content}`, or with media multipart `payload_json` + `files[n]`. Metrics are the
 * message's reaction counts (likes) and its thread's message count (replies).
 */
const DISCORD_LIMITS = { files: 10, fileBytes: 10 * 1024 * 1024 } as const;

function checkFileCount(media: ContentPart['media']): void {
  if (media.length > DISCORD_LIMITS.files) throw new ConnectorError('rejected', `Discord takes at most ${DISCORD_LIMITS.files} files per message (${media.length} given)`);
}

export function discordConnector(baseUrl = 'https://discord.com/api/v10'): Connector & CommunitiesSource {
  const auth = (t: TargetAccount) => ({ authorization: `Bot ${t.credentials.access_token}` });
  const credential = (t: TargetAccount, key: 'channel_id' | 'guild_id'): string => {
    const value = t.credentials[key];
    if (!value) throw new ConnectorError('auth', `the Discord account has no ${key}: reconnect it`);
    return value;
  };
  const messagesUrl = (channelId: string) => `${baseUrl}/channels/${encodeURIComponent(channelId)}/messages`;
  const permalink = (t: TargetAccount, id: string) => `https://discord.com/channels/${credential(t, 'guild_id')}/${credential(t, 'channel_id')}/${id}`;

  const webhookOf = (t: TargetAccount) => (t.credentials.webhook_id && t.credentials.webhook_token ? { id: t.credentials.webhook_id, token: t.credentials.webhook_token } : undefined);
  const hookUrl = (hook: { id: string; token: string }, rest = '') => `${baseUrl}/webhooks/${encodeURIComponent(hook.id)}/${encodeURIComponent(hook.token)}${rest}`;

  /** One call through the account's webhook: 401 and 404 (Unknown Webhook) mean it is gone; the token never appears in an error. */
  async function viaHook(hook: { id: string; token: string }, rest: string, options: Parameters<typeof callPlatform>[1] = {}) {
    try {
      return await callPlatform(hookUrl(hook, rest), { ...options, authStatuses: [401, 404] });
    } catch (err) {
      if (!(err instanceof ConnectorError)) throw err;
      const masked = err.message.replaceAll(encodeURIComponent(hook.token), '<token>').replaceAll(hook.token, '<token>');
      // A 404 on one message of a live webhook is the message, not the webhook.
      const kind = err.kind === 'auth' && err.status === 404 && !/10015|Unknown Webhook/.test(masked) ? 'rejected' : err.kind;
      throw new ConnectorError(kind, masked, err.retryAfterMs, err.status);
    }
  }

  /**
   * The message body: JSON, or multipart with the media as files of the same request. Discord takes at
   * most 10 files of at most 10 MiB each (https://discord.com/developers/docs/reference#uploading-files):
   * more is refused here, never dropped.
   */
  async function payload(content: string, media: ContentPart['media']): Promise<unknown> {
    if (!media.length) return { content };
    checkFileCount(media);
    const files = await Promise.all(media.map(async (m) => ({ name: m.r2Key.split('/').pop() || 'file', ...(await m.read()) })));
    const big = files.find((f) => f.bytes.length > DISCORD_LIMITS.fileBytes);
    if (big) throw new ConnectorError('rejected', `${big.name} is ${big.bytes.length} bytes: Discord takes files of at most 10 MiB`);
    const form = new FormData();
    form.append('payload_json', JSON.stringify({ content, attachments: files.map((f, id) => ({ id, filename: f.name })) }));
    files.forEach((f, i) => form.append(`files[${i}]`, new Blob([new Uint8Array(f.bytes)], { type: f.contentType }), f.name));
    return form;
  }

  /** Posts one message; media are uploaded as files of the same request. Answers the message id. */
  async function send(target: TargetAccount, channelId: string, content: string, media: ContentPart['media'] = []): Promise<string> {
    const hook = webhookOf(target);
    if (hook) return field<string>((await viaHook(hook, '?wait=true', { method: 'POST', body: await payload(content, media) })).body, 'id');
    const answer = await callPlatform(messagesUrl(channelId), { method: 'POST', headers: auth(target), body: await payload(content, media) });
    return field<string>(answer.body, 'id');
  }

  /** Opens a public thread on a message (named after its text, 1–100 characters); answers the thread's channel id. */
  async function openThread(target: TargetAccount, channelId: string, messageId: string, title: string): Promise<string> {
    const name = Array.from(title.trim()).slice(0, 100).join('') || 'Thread';
    const answer = await callPlatform(`${messagesUrl(channelId)}/${encodeURIComponent(messageId)}/threads`, { method: 'POST', headers: auth(target), body: { name } });
    return field<string>(answer.body, 'id');
  }

  return {
    platform: 'discord',
    // GET /guilds/{guild}/channels: the server's channels; text (type 0) and announcement (5) ones take messages.
    async communities(target: TargetAccount): Promise<Community[]> {
      const answer = await callPlatform(`${baseUrl}/guilds/${encodeURIComponent(credential(target, 'guild_id'))}/channels`, { headers: auth(target) });
      const channels = Array.isArray(answer.body) ? (answer.body as Array<{ id: string; name: string; type: number; position?: number }>) : [];
      return channels
        .filter((c) => c.type === 0 || c.type === 5)
        .sort((a, b) => (a.position ?? 0) - (b.position ?? 0))
        .slice(0, MAX_COMMUNITIES)
        .map((c) => ({ id: c.id, name: c.name, kind: c.type === 5 ? 'announcement_channel' : 'text_channel', current: c.id === target.credentials.channel_id }));
    },

    async publish({ target, parts }: PublishRequest): Promise<Published> {
      const [first, ...rest] = parts;
      if (!first) throw new Error('nothing to publish');
      if (parts.some((p) => p.poll)) throw new ConnectorError('rejected', 'polls are not supported by the Discord connector');
      const channelId = credential(target, 'channel_id');
      const id = await send(target, channelId, first.body, first.media);
      const replies = [...rest.map((p) => ({ body: p.body, media: p.media })), ...(first.firstComment ? [{ body: first.firstComment, media: [] }] : [])];
      if (replies.length && webhookOf(target)) {
        for (const reply of replies) await send(target, channelId, reply.body, reply.media);
      } else if (replies.length) {
        const threadId = await openThread(target, channelId, id, first.body);
        for (const reply of replies) await send(target, threadId, reply.body, reply.media);
      }
      return { platformPostId: id, permalink: permalink(target, id) };
    },

    async findPublished({ target, parts }: PublishRequest, since: Date): Promise<Published | null> {
      if (webhookOf(target)) return null;
      const answer = await callPlatform(`${messagesUrl(credential(target, 'channel_id'))}?limit=50`, { headers: auth(target) });
      const messages = Array.isArray(answer.body) ? (answer.body as Array<{ id: string; content: string; timestamp: string }>) : [];
      const found = messages.find((m) => m.content === parts[0]?.body && Date.parse(m.timestamp) >= since.getTime());
      return found ? { platformPostId: found.id, permalink: permalink(target, found.id) } : null;
    },

    async delete(target: TargetAccount, platformPostId: string): Promise<void> {
      const hook = webhookOf(target);
      if (hook) {
        await viaHook(hook, `/messages/${encodeURIComponent(platformPostId)}`, { method: 'DELETE' });
        return;
      }
      await callPlatform(`${messagesUrl(credential(target, 'channel_id'))}/${encodeURIComponent(platformPostId)}`, { method: 'DELETE', headers: auth(target) });
    },

    async fetchMetrics(target: TargetAccount, platformPostId: string): Promise<PostMetrics> {
      const hook = webhookOf(target);
      const answer = hook
        ? await viaHook(hook, `/messages/${encodeURIComponent(platformPostId)}`)
        : await callPlatform(`${messagesUrl(credential(target, 'channel_id'))}/${encodeURIComponent(platformPostId)}`, { headers: auth(target) });
      const message = answer.body as { reactions?: Array<{ count: number }>; thread?: { message_count?: number } };
      const likes = (message.reactions ?? []).reduce((sum, r) => sum + r.count, 0);
      // Discord reports no views, shares or clicks of a message.
      return { impressions: null, likes, replies: message.thread?.message_count ?? 0, reposts: null, clicks: null };
    },

    /** Each message's file count (sizes and types are the capability table's, checked by the common preflight). */
    async preflight({ parts }: PublishRequest): Promise<void> {
      if (parts.some((p) => p.poll)) throw new ConnectorError('rejected', 'polls are not supported by the Discord connector');
      for (const part of parts) checkFileCount(part.media);
    },

    async validateCredentials(target: TargetAccount): Promise<boolean> {
      const hook = webhookOf(target);
      if (hook) {
        field<string>((await viaHook(hook, '')).body, 'id');
        return true;
      }
      const answer = await callPlatform(`${baseUrl}/users/@me`, { headers: auth(target) });
      field<string>(answer.body, 'id');
      return true;
    },
  };
}
