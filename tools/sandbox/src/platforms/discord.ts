import { inspectMedia, type InspectedMedia } from '../media/inspect.js';
import type { SandboxMediaRule } from '../media/rules.js';
import type { PlatformRules, SandboxPlatform, SandboxRequest, SandboxResponse } from '../router.js';
import type { SandboxPost, SandboxState } from '../state.js';

const UPLOADING_FILES = 'https://discord.com/developers/docs/reference#uploading-files';
const CREATE_MESSAGE = 'https://discord.com/developers/docs/resources/message#create-message';

/** Any file, at most 10 MiB each (the default for every user, bot and webhook; more only with Nitro or server boosts). */
export const DISCORD_FILE: SandboxMediaRule = {
  types: ['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'video/mp4', 'video/quicktime', 'video/webm'],
  max_bytes: 10 * 1024 * 1024,
  source: UPLOADING_FILES,
};
const MAX_FILES = 10;
const MAX_CONTENT = 2000;

export const DISCORD_RULES: PlatformRules = {
  media: { image: DISCORD_FILE, video: DISCORD_FILE },
  other: [
    { rule: 'any file type is taken (the listed ones are shown inline); each file at most 10 MiB, else 413 Request entity too large (40005)', source: UPLOADING_FILES },
    { rule: 'at most 10 files per message (files[0..9]); payload_json attachments[].id must name a files[n] part', source: CREATE_MESSAGE },
    { rule: 'content at most 2000 characters; a message needs content or a file (50006)', source: CREATE_MESSAGE },
  ],
};

/**
 * Discord REST API v10 (bot token `Authorization: Bot …`): POST /channels/:c/messages (JSON `{content}`
 * or multipart `payload_json` + `files[n]`), POST /channels/:c/messages/:m/threads `{name}` (the thread's
 * channel id is the message id), GET /channels/:c/messages?limit=, GET/DELETE /channels/:c/messages/:m
 * (reactions; `thread.message_count`), GET /users/@me. Errors are `{message, code}` (+ `errors` for 50035).
 * Incoming webhooks (no Authorization; the token is in the path): POST /webhooks/:id/:token (Execute
 * Webhook; `?wait=true` answers the Message, otherwise 204), GET /webhooks/:id/:token, GET/DELETE
 * /webhooks/:id/:token/messages/:m. The webhook the OAuth stand-in issues for account A is `wh-A` with
 * token `whtoken-A`, posting to channel `chan-A`; anything else is 404 Unknown Webhook or 401 Invalid Webhook Token.
 * GET /guilds/:g/channels (the server's channels).
 */
const DISCORD_EPOCH = 1_420_070_400_000n;
let sequence = 0;
const snowflake = () => String(((BigInt(Date.now()) - DISCORD_EPOCH) << 22n) | BigInt(sequence++ & 0xfff));

/** Every message gets the same reactions, so metrics are predictable: 👍 5, 🎉 2. */
const REACTIONS = [
  { emoji: { id: null, name: '👍' }, count: 5, count_details: { burst: 0, normal: 5 }, me: false, me_burst: false, burst_colors: [] },
  { emoji: { id: null, name: '🎉' }, count: 2, count_details: { burst: 0, normal: 2 }, me: false, me_burst: false, burst_colors: [] },
];

const invalidForm = (path: string, code: string, message: string): SandboxResponse => ({
  status: 400,
  body: { message: 'Invalid Form Body', code: 50035, errors: { [path]: { _errors: [{ code, message }] } } },
});
const unknownMessage: SandboxResponse = { status: 404, body: { message: 'Unknown Message', code: 10008 } };

/** The account behind an incoming webhook (`wh-<account>` / `whtoken-<account>`), or Discord's answer. */
function webhookAccount(req: SandboxRequest): { account: string } | { refusal: SandboxResponse } {
  const account = /^wh-(.+)$/.exec(req.params.id ?? '')?.[1];
  if (!account) return { refusal: { status: 404, body: { message: 'Unknown Webhook', code: 10015 } } };
  if (req.params.token !== `whtoken-${account}`) return { refusal: { status: 401, body: { message: 'Invalid Webhook Token', code: 50027 } } };
  return { account };
}

function webhookMessage(req: SandboxRequest, state: SandboxState, account: string): SandboxPost | undefined {
  const post = state.find('discord', req.params.message!);
  return post?.details.webhook_id === `wh-${account}` ? post : undefined;
}

interface Attachment {
  id: string;
  filename: string;
  size: number;
  content_type: string;
}

interface Payload {
  content: string;
  attachments: Attachment[];
  media: InspectedMedia[];
  multipart: boolean;
}

/**
 * The message payload: JSON, or multipart with `payload_json` and `files[n]` parts, each file read from
 * its bytes (its type as Discord sniffs it). Answers Discord's refusal instead when the files break its rules.
 */
async function readPayload(req: SandboxRequest): Promise<Payload | SandboxResponse> {
  const type = req.headers['content-type'] ?? '';
  let payload: Payload;
  if (!type.startsWith('multipart/form-data')) payload = { content: String((req.body as { content?: unknown } | undefined)?.content ?? ''), attachments: [], media: [], multipart: false };
  else {
    const form = await new Request('http://sandbox', { method: 'POST', headers: { 'content-type': type }, body: new Uint8Array(req.raw) }).formData();
    const json = JSON.parse(String(form.get('payload_json') ?? '{}')) as { content?: string; attachments?: Array<{ id?: unknown }> };
    payload = { content: json.content ?? '', attachments: [], media: [], multipart: true };
    for (const [key, value] of form.entries()) {
      const index = /^files\[(\d+)\]$/.exec(key)?.[1];
      if (index === undefined || typeof value === 'string') continue;
      if (value.size > DISCORD_FILE.max_bytes) return { status: 413, body: { message: 'Request entity too large', code: 40005 } };
      const media = await inspectMedia(Buffer.from(await value.arrayBuffer()));
      payload.attachments.push({ id: index, filename: value.name, size: value.size, content_type: media.content_type });
      payload.media.push(media);
    }
    const unknown = (json.attachments ?? []).findIndex((a) => !payload.attachments.some((f) => f.id === String(a.id)));
    if (unknown !== -1) return invalidForm(`attachments.${unknown}.id`, 'ATTACHMENT_NOT_FOUND', 'Attachment data not found');
  }
  if (!payload.content && !payload.attachments.length) return { status: 400, body: { message: 'Cannot send an empty message', code: 50006 } };
  if (payload.content.length > MAX_CONTENT) return invalidForm('content', 'BASE_TYPE_MAX_LENGTH', `Must be ${MAX_CONTENT} or fewer in length.`);
  if (payload.attachments.length > MAX_FILES) return invalidForm('attachments', 'BASE_TYPE_MAX_LENGTH', `Must be ${MAX_FILES} or fewer in length.`);
  return payload;
}

function toMessage(post: SandboxPost, state: SandboxState) {
  const thread = post.details.thread as { id: string; name: string } | undefined;
  return {
    id: post.id,
    type: 0,
    channel_id: post.details.channel_id,
    content: post.text,
    timestamp: post.createdAt.toISOString(),
    author: { id: `bot-${post.account}`, username: post.account, bot: true },
    attachments: ((post.details.attachments as Attachment[] | undefined) ?? []).map((a) => ({ ...a, url: `https://cdn.discordapp.com/attachments/${post.details.channel_id}/${a.id}/${a.filename}` })),
    reactions: REACTIONS,
    ...(thread ? { thread: { id: thread.id, type: 11, name: thread.name, parent_id: post.details.channel_id, message_count: messagesIn(state, thread.id).length } } : {}),
  };
}

const messagesIn = (state: SandboxState, channelId: string) => state.postsOf('discord').filter((p) => p.details.channel_id === channelId);

function messageIn(state: SandboxState, req: SandboxRequest): SandboxPost | undefined {
  const post = state.find('discord', req.params.message!);
  return post?.details.channel_id === req.params.channel ? post : undefined;
}

export const discord: SandboxPlatform = {
  name: 'discord',
  unauthorized: () => ({ status: 401, body: { message: '401: Unauthorized', code: 0 } }),
  rules: DISCORD_RULES,
  routes: [
    {
      method: 'POST',
      path: '/channels/:channel/messages',
      creates: true,
      handle: async (req, state) => {
        const payload = await readPayload(req);
        if ('status' in payload) return payload;
        const { content, attachments, multipart, media } = payload;
        const post = state.createPost('discord', req.account!, content, { channel_id: req.params.channel, attachments, multipart }, snowflake(), media);
        return { status: 200, body: toMessage(post, state) };
      },
    },
    {
      method: 'POST',
      path: '/channels/:channel/messages/:message/threads',
      handle: (req, state) => {
        const name = (req.body as { name?: unknown } | undefined)?.name;
        if (typeof name !== 'string' || name.length < 1 || name.length > 100) return invalidForm('name', 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.');
        const post = messageIn(state, req);
        if (!post) return unknownMessage;
        if (post.details.thread) return { status: 400, body: { message: 'A thread has already been created for this message', code: 160004 } };
        post.details.thread = { id: post.id, name };
        return { status: 201, body: { id: post.id, type: 11, name, parent_id: req.params.channel, owner_id: `bot-${req.account}`, message_count: 0, member_count: 1 } };
      },
    },
    {
      method: 'GET',
      path: '/channels/:channel/messages',
      handle: (req, state) => {
        const limit = Math.min(100, Math.max(1, Number(req.query.get('limit') ?? 50)));
        const newestFirst = messagesIn(state, req.params.channel!).reverse().slice(0, limit);
        return { status: 200, body: newestFirst.map((p) => toMessage(p, state)) };
      },
    },
    {
      method: 'GET',
      path: '/channels/:channel/messages/:message',
      handle: (req, state) => {
        const post = messageIn(state, req);
        return post ? { status: 200, body: toMessage(post, state) } : unknownMessage;
      },
    },
    {
      method: 'DELETE',
      path: '/channels/:channel/messages/:message',
      handle: (req, state) => (messageIn(state, req) && state.remove('discord', req.params.message!) ? { status: 204 } : unknownMessage),
    },
    {
      method: 'POST',
      path: '/webhooks/:id/:token',
      auth: false,
      creates: true,
      handle: async (req, state) => {
        const hook = webhookAccount(req);
        if ('refusal' in hook) return hook.refusal;
        const payload = await readPayload(req);
        if ('status' in payload) return payload;
        const { content, attachments, multipart, media } = payload;
        const post = state.createPost('discord', hook.account, content, { channel_id: `chan-${hook.account}`, webhook_id: `wh-${hook.account}`, attachments, multipart }, snowflake(), media);
        return req.query.get('wait') === 'true' ? { status: 200, body: toMessage(post, state) } : { status: 204 };
      },
    },
    {
      method: 'GET',
      path: '/webhooks/:id/:token',
      auth: false,
      handle: (req) => {
        const hook = webhookAccount(req);
        if ('refusal' in hook) return hook.refusal;
        return {
          status: 200,
          body: { id: `wh-${hook.account}`, type: 1, channel_id: `chan-${hook.account}`, guild_id: `guild-${hook.account}`, name: `${hook.account} hook`, token: req.params.token },
        };
      },
    },
    {
      method: 'GET',
      path: '/webhooks/:id/:token/messages/:message',
      auth: false,
      metrics: true,
      handle: (req, state) => {
        const hook = webhookAccount(req);
        if ('refusal' in hook) return hook.refusal;
        const post = webhookMessage(req, state, hook.account);
        return post ? { status: 200, body: toMessage(post, state) } : unknownMessage;
      },
    },
    {
      method: 'DELETE',
      path: '/webhooks/:id/:token/messages/:message',
      auth: false,
      handle: (req, state) => {
        const hook = webhookAccount(req);
        if ('refusal' in hook) return hook.refusal;
        return webhookMessage(req, state, hook.account) && state.remove('discord', req.params.message!) ? { status: 204 } : unknownMessage;
      },
    },
    {
      // The server of account A is `guild-A`: a text channel (the account's `chan-A`), an announcement
      // channel, a voice channel and a category (those two take no messages). Another server: 50001.
      method: 'GET',
      path: '/guilds/:guild/channels',
      handle: (req) => {
        const a = req.account;
        if (req.params.guild !== `guild-${a}`) return { status: 403, body: { message: 'Missing Access', code: 50001 } };
        const channel = (id: string, name: string, type: number, position: number, parent_id: string | null) => ({
          id,
          type,
          guild_id: req.params.guild,
          name,
          position,
          parent_id,
          nsfw: false,
          permission_overwrites: [],
        });
        return {
          status: 200,
          body: [
            channel(`cat-${a}`, 'Text Channels', 4, 0, null),
            channel(`news-${a}`, 'announcements', 5, 2, `cat-${a}`),
            channel(`chan-${a}`, 'general', 0, 1, `cat-${a}`),
            channel(`voice-${a}`, 'Lounge', 2, 3, null),
          ],
        };
      },
    },
    {
      method: 'GET',
      path: '/users/@me',
      handle: (req) => ({ status: 200, body: { id: `bot-${req.account}`, username: req.account, discriminator: '0', bot: true } }),
    },
  ],
};
