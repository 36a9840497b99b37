import type { InspectedMedia } from '../media/inspect.js';
import type { Route, SandboxPlatform, SandboxRequest, SandboxResponse } from '../router.js';
import type { SandboxPost, SandboxState } from '../state.js';
import { readParams, resolveFile, TELEGRAM_RULES, type Body } from './telegram/media.js';

export { TELEGRAM_PHOTO, TELEGRAM_RULES, TELEGRAM_VIDEO } from './telegram/media.js';

/**
 * Telegram Bot API (`/bot<token>/<method>`, JSON, urlencoded or multipart bodies): sendMessage (text,
 * parse_mode HTML), sendPhoto, sendVideo, sendMediaGroup (2–10 items; files uploaded in the request or
 * downloaded from their URL, read from their bytes and checked as TELEGRAM_RULES says), sendPoll, each with an optional
 * `reply_parameters.message_id` / `reply_to_message_id`; deleteMessage; getMe; getChat and getChatMember
 * (chats registered with `POST /_sandbox/telegram/chats`). Answers
 * `{ok:true, result}`, or `{ok:false, error_code, description}` with error_code as the HTTP status.
 * Stored posts hold the plain text (HTML entities decoded, tags stripped), as Message.text does.
 */

let nextMessageId = 1;
/**
 * The chat a sandbox account's bot posts to: the `chat_id` that accounts gives a sandbox Telegram account
 * (services/accounts/src/domain/social-accounts.ts derives it the same way from the account name).
 */
function ownChatId(account: string): string {
  let h = 0;
  for (const c of account) h = (Math.imul(h, 31) + c.charCodeAt(0)) | 0;
  return `-100${Math.abs(h)}`;
}

/** Every sandbox bot's user id (getMe). */
const BOT_ID = 7000000001;

const badRequest = (description: string): SandboxResponse => ({ status: 400, body: { ok: false, error_code: 400, description: `Bad Request: ${description}` } });
const ok = (result: unknown): SandboxResponse => ({ status: 200, body: { ok: true, result } });

const TAGS = new Set(['b', 'strong', 'i', 'em', 'u', 'ins', 's', 'strike', 'del', 'a', 'code', 'pre', 'span', 'tg-spoiler', 'tg-emoji', 'blockquote']);
const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };

/** Telegram's HTML parse mode: supported tags only, `<` must start a tag; answers the plain text or an error. */
function parseHtml(text: string): { plain: string } | { error: string } {
  let plain = '';
  let at = 0;
  for (const m of text.matchAll(/<(\/?)([^\s>/]*)[^<>]*>|&(lt|gt|amp|quot|#\d+);|</g)) {
    plain += text.slice(at, m.index);
    at = m.index + m[0].length;
    const offset = Buffer.byteLength(text.slice(0, m.index));
    if (m[0] === '<') return { error: `can't parse entities: Unexpected end of name token at byte offset ${offset}` };
    if (m[3]) plain += m[3].startsWith('#') ? String.fromCodePoint(Number(m[3].slice(1))) : ENTITIES[m[3]];
    else if (!TAGS.has(m[2]!.toLowerCase())) return { error: `can't parse entities: Unsupported start tag "${m[2]}" at byte offset ${offset}` };
  }
  return { plain: plain + text.slice(at) };
}

/** The visible text of a text or caption field under its parse_mode. */
function readText(body: Body, key: 'text' | 'caption'): { plain: string } | { error: string } {
  const value = body[key] === undefined ? '' : String(body[key]);
  return body.parse_mode === 'HTML' ? parseHtml(value) : { plain: value };
}

function replyTarget(body: Body, state: SandboxState): { id?: number } | { error: string } {
  const id = (body.reply_parameters as { message_id?: number } | undefined)?.message_id ?? (body.reply_to_message_id as number | undefined);
  if (id === undefined) return {};
  const post = state.find('telegram', String(id));
  return post && post.details.chat_id === String(body.chat_id) ? { id } : { error: 'message to be replied not found' };
}

function toMessage(post: SandboxPost) {
  const chatId = post.details.chat_id as string;
  const { kind, reply_to, media_group_id, poll } = post.details as { kind: string; reply_to?: number; media_group_id?: string; poll?: { question: string; options: string[] } };
  const facts = post.media[0] as (InspectedMedia & { width?: number; height?: number; duration_s?: number }) | undefined;
  const file = { file_id: `file-${post.id}`, file_unique_id: `u${post.id}`, width: facts?.width ?? 0, height: facts?.height ?? 0, file_size: facts?.bytes ?? 0 };
  return {
    message_id: Number(post.id),
    date: Math.floor(post.createdAt.getTime() / 1000),
    chat: /^-?\d+$/.test(chatId) ? { id: Number(chatId), type: 'channel', title: post.account } : { id: -1000000000001, type: 'channel', title: post.account, username: chatId.replace(/^@/, '') },
    ...(kind === 'text' ? { text: post.text } : {}),
    ...(kind === 'photo' ? { photo: [file] } : {}),
    ...(kind === 'video' ? { video: { ...file, duration: Math.round(facts?.duration_s ?? 0), mime_type: facts?.content_type } } : {}),
    ...((kind === 'photo' || kind === 'video') && post.text ? { caption: post.text } : {}),
    ...(poll
      ? {
          poll: {
            id: `poll-${post.id}`,
            question: poll.question,
            options: poll.options.map((text) => ({ text, voter_count: 0 })),
            total_voter_count: 0,
            is_closed: false,
            is_anonymous: true,
            type: 'regular',
            allows_multiple_answers: false,
          },
        }
      : {}),
    ...(media_group_id ? { media_group_id } : {}),
    ...(reply_to ? { reply_to_message: { message_id: reply_to } } : {}),
  };
}

/** A route for a send method: checks chat_id and the reply target, then lets `build` make the message(s). */
type Build = (body: Body, req: SandboxRequest, state: SandboxState, replyTo: number | undefined, form: FormData | undefined) => SandboxResponse | Promise<SandboxResponse>;

function sendRoute(method: string, build: Build): Route {
  return {
    method: 'POST',
    path: `/bot:token/${method}`,
    creates: true,
    handle: async (req, state) => {
      const { body, form } = await readParams(req);
      if (body.chat_id === undefined || body.chat_id === '') return badRequest('chat_id is empty');
      const reply = replyTarget(body, state);
      if ('error' in reply) return badRequest(reply.error);
      return build(body, req, state, reply.id, form);
    },
  };
}

function create(state: SandboxState, req: SandboxRequest, body: Body, text: string, details: Body, media: InspectedMedia[] = []): SandboxPost {
  return state.createPost('telegram', req.account!, text, { chat_id: String(body.chat_id), parse_mode: body.parse_mode, ...details }, String(nextMessageId++), media);
}

/** sendPhoto / sendVideo: the file uploaded or by URL, an optional caption (≤1024 characters). */
function sendMedia(kind: 'photo' | 'video'): Route {
  return sendRoute(kind === 'photo' ? 'sendPhoto' : 'sendVideo', async (body, req, state, replyTo, form) => {
    const text = readText(body, 'caption');
    if ('error' in text) return badRequest(text.error);
    if (text.plain.length > 1024) return badRequest('message caption is too long');
    const file = await resolveFile(kind, body[kind], form, kind);
    if ('error' in file) return badRequest(file.error);
    const ref = typeof body[kind] === 'string' ? body[kind] : 'upload';
    return ok(toMessage(create(state, req, body, text.plain, { kind, [kind]: ref, reply_to: replyTo }, [file.media])));
  });
}

export const telegram: SandboxPlatform = {
  name: 'telegram',
  unauthorized: () => ({ status: 401, body: { ok: false, error_code: 401, description: 'Unauthorized' } }),
  rules: TELEGRAM_RULES,
  routes: [
    sendRoute('sendMessage', (body, req, state, replyTo) => {
      const text = readText(body, 'text');
      if ('error' in text) return badRequest(text.error);
      if (!text.plain.trim()) return badRequest('message text is empty');
      if (text.plain.length > 4096) return badRequest('message is too long');
      return ok(toMessage(create(state, req, body, text.plain, { kind: 'text', raw: body.text, reply_to: replyTo })));
    }),
    sendMedia('photo'),
    sendMedia('video'),
    sendRoute('sendMediaGroup', async (body, req, state, replyTo, form) => {
      const media = body.media as Array<Body> | undefined;
      if (!Array.isArray(media) || media.length < 2 || media.length > 10) return badRequest('wrong number of media specified: must be 2-10');
      const captions: string[] = [];
      const files: InspectedMedia[] = [];
      for (const item of media) {
        if ((item.type !== 'photo' && item.type !== 'video') || typeof item.media !== 'string' || !item.media) return badRequest('wrong media in the group');
        const text = readText(item, 'caption');
        if ('error' in text) return badRequest(text.error);
        if (text.plain.length > 1024) return badRequest('message caption is too long');
        captions.push(text.plain);
        const file = await resolveFile(item.type, item.media, form, '');
        if ('error' in file) return badRequest(file.error);
        files.push(file.media);
      }
      const group = `group-${nextMessageId}`;
      const posts = media.map((item, i) => create(state, req, body, captions[i]!, { kind: item.type, [String(item.type)]: item.media, media_group_id: group, reply_to: replyTo }, [files[i]!]));
      return ok(posts.map(toMessage));
    }),
    sendRoute('sendPoll', (body, req, state, replyTo) => {
      const question = typeof body.question === 'string' ? body.question : '';
      const options = ((body.options as unknown[] | undefined) ?? []).map((o) => (typeof o === 'string' ? o : String((o as { text?: unknown }).text ?? '')));
      if (!question.trim()) return badRequest('poll question must be non-empty');
      if (question.length > 300) return badRequest('poll question length must not exceed 300');
      if (options.length < 2 || options.some((o) => !o.trim())) return badRequest('poll must have at least 2 non-empty options');
      if (options.length > 12) return badRequest("poll can't have more than 12 options");
      return ok(toMessage(create(state, req, body, question, { kind: 'poll', poll: { question, options }, reply_to: replyTo })));
    }),
    {
      method: 'POST',
      path: '/bot:token/deleteMessage',
      handle: (req, state) => {
        const body = (req.body ?? {}) as Body;
        const post = state.find('telegram', String(body.message_id));
        if (!post || post.details.chat_id !== String(body.chat_id)) return badRequest('message to delete not found');
        state.remove('telegram', post.id);
        return ok(true);
      },
    },
    {
      method: 'GET',
      path: '/bot:token/getMe',
      handle: (req) => ok({ id: BOT_ID, is_bot: true, first_name: req.account, username: `${req.account}_bot`, can_join_groups: true }),
    },
    {
      // Only chats registered with POST /_sandbox/telegram/chats are known (as a bot knows only the chats it is in).
      method: 'POST',
      path: '/bot:token/getChat',
      // A sandbox account's own chat (the one its bot posts to, `chat_id` of its sandbox credentials) is known too.
      handle: (req, state) => {
        const chatId = String(((req.body ?? {}) as Body).chat_id ?? '');
        if (!chatId) return badRequest('chat_id is empty');
        const chat = state.telegramChats.get(chatId);
        if (!chat && req.account && chatId === ownChatId(req.account)) return ok({ id: Number(chatId), type: 'channel', title: `${req.account} channel` });
        if (!chat || chat.bot_status === 'left' || chat.bot_status === 'kicked') return badRequest('chat not found');
        return ok({ id: chat.id, type: chat.type, title: chat.title, ...(chat.username ? { username: chat.username } : {}) });
      },
    },
    {
      method: 'POST',
      path: '/bot:token/getChatMember',
      handle: (req, state) => {
        const body = (req.body ?? {}) as Body;
        const chat = state.telegramChats.get(String(body.chat_id));
        if (!chat) return badRequest('chat not found');
        if (Number(body.user_id) !== BOT_ID) return badRequest('user not found');
        const user = { id: BOT_ID, is_bot: true, first_name: req.account, username: `${req.account}_bot` };
        const rights = chat.bot_status === 'administrator' ? { can_be_edited: false, can_manage_chat: true, ...(chat.type === 'channel' ? { can_post_messages: chat.can_post_messages } : {}) } : {};
        return ok({ status: chat.bot_status, user, ...rights, ...(chat.bot_status === 'restricted' ? { can_send_messages: false } : {}) });
      },
    },
  ],
};
