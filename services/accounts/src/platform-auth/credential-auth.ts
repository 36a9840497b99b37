import type { Platform } from '@spa/vocabulary';
import { CredentialRejected, PlatformAuthError, type CredentialAuth, type Identity, type TokenSet } from '../domain/connect/ports.js';
import { fetchJson, str } from './http.js';

type Answer = Awaited<ReturnType<typeof fetchJson>>;

/** The claims of a JWT (not verified: only its issuer checks it; we read its lifetime and scope). */
function jwtClaims(jwt: string): { exp?: number; scope?: string } {
  try {
    return JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')) as { exp?: number; scope?: string };
  } catch {
    return {};
  }
}

const expiryOf = (jwt: string): Date | undefined => {
  const exp = jwtClaims(jwt).exp;
  return typeof exp === 'number' && exp > 0 ? new Date(exp * 1000) : undefined;
};

/** A 429 or 5xx: the platform could not answer now (nothing the user entered is wrong). */
function transientIf(answer: Answer, what: string): void {
  if (answer.status === 429 || answer.status >= 500) throw new PlatformAuthError('transient', `${what} answered ${answer.status}`);
}

/** XRPC's `{error, message}`. */
const xrpcError = (answer: Answer) => ({ error: str(answer.body.error), message: str(answer.body.message) });

/**
 * Credential entry checked with the platform (Bluesky app passwords on the account's PDS, Telegram bot
 * tokens with the Bot API). With `sandboxUrl`, Telegram (and Bluesky when no PDS is named) is reached at
 * `<sandboxUrl>/<platform>`. Secrets travel only in request bodies, headers or the Bot API path, never
 * in an error message.
 */
export function credentialAuth(opts: { sandboxUrl?: string | undefined }): CredentialAuth {
  const telegramBase = opts.sandboxUrl ? `${opts.sandboxUrl}/telegram` : 'https://api.telegram.org';

  async function createSession(pdsUrl: string, identifier: string, password: string): Promise<Answer> {
    const answer = await fetchJson(`${pdsUrl}/xrpc/com.atproto.server.createSession`, { json: { identifier, password } });
    transientIf(answer, new URL(pdsUrl).host);
    return answer;
  }

  const sessionTokens = (body: Record<string, unknown>): TokenSet => {
    const accessToken = str(body.accessJwt);
    if (!accessToken) throw new PlatformAuthError('transient', 'the PDS answered a session without an accessJwt');
    return { accessToken, refreshToken: str(body.refreshJwt) || undefined, expiresAt: expiryOf(accessToken), extras: {} };
  };

  /** The profile record (display name, avatar blob) straight from the account's repo: any PDS serves it, no app view needed. */
  async function profile(pdsUrl: string, did: string): Promise<{ displayName: string; avatarUrl: string }> {
    const query = new URLSearchParams({ repo: did, collection: 'app.bsky.actor.profile', rkey: 'self' });
    const answer = await fetchJson(`${pdsUrl}/xrpc/com.atproto.repo.getRecord?${query}`, {}).catch(() => undefined);
    const value = (answer?.ok ? answer.body.value : undefined) as { displayName?: unknown; avatar?: { ref?: { $link?: unknown } } } | undefined;
    const cid = str(value?.avatar?.ref?.$link);
    return {
      displayName: str(value?.displayName),
      avatarUrl: cid ? `${pdsUrl}/xrpc/com.atproto.sync.getBlob?${new URLSearchParams({ did, cid })}` : '',
    };
  }

  /** One Bot API method (`/bot<token>/<method>`); the token is in the path, so messages never quote the URL. */
  async function bot(token: string, method: string, body?: Record<string, unknown>): Promise<{ ok: boolean; status: number; result: Record<string, unknown>; description: string }> {
    const answer = await fetchJson(`${telegramBase}/bot${token}/${method}`, body ? { json: body } : {});
    transientIf(answer, `Telegram ${method}`);
    const result = answer.body.result;
    return {
      ok: answer.ok && answer.body.ok === true,
      status: answer.status,
      result: result !== null && typeof result === 'object' ? (result as Record<string, unknown>) : {},
      description: str(answer.body.description) || `HTTP ${answer.status}`,
    };
  }

  return {
    async blueskySession({ pdsUrl, identifier, appPassword }) {
      const answer = await createSession(pdsUrl, identifier, appPassword).catch((err: unknown) => {
        // The address the user entered does not answer: theirs to correct (a 5xx or 429 stays transient).
        if (err instanceof PlatformAuthError && /did not answer/.test(err.message)) throw new CredentialRejected('pds_url', `${err.message}: check the PDS address`);
        throw err;
      });
      if (!answer.ok) {
        const { error, message } = xrpcError(answer);
        if (error === 'AccountTakedown' || error === 'AccountDeactivated') throw new CredentialRejected('identifier', `the account is not active on its PDS (${error}: ${message})`);
        if (answer.status === 404 || (!error && !message)) throw new CredentialRejected('pds_url', `${pdsUrl} does not answer as a Bluesky PDS (HTTP ${answer.status})`);
        throw new CredentialRejected('app_password', `the PDS refused the identifier or app password (${error || `HTTP ${answer.status}`}${message ? `: ${message}` : ''})`);
      }
      const tokens = sessionTokens(answer.body);
      // A session from the main password has the full `com.atproto.access` scope; app passwords get `com.atproto.appPass*`.
      if (jwtClaims(tokens.accessToken).scope === 'com.atproto.access') {
        throw new CredentialRejected('app_password', 'this is the account password, not an app password: create one in Bluesky under Settings → Privacy and security → App passwords');
      }
      const did = str(answer.body.did);
      const handle = str(answer.body.handle);
      if (!did) throw new PlatformAuthError('transient', 'the PDS answered a session without a did');
      const { displayName, avatarUrl } = await profile(pdsUrl, did);
      const identity: Identity = {
        externalId: did,
        username: handle || did,
        displayName: displayName || handle,
        avatarUrl,
        credentials: { did, handle, pds_url: pdsUrl, identifier, app_password: appPassword },
      };
      return { tokens, identity };
    },

    async telegramBot({ botToken, chatId }) {
      const me = await bot(botToken, 'getMe');
      if (!me.ok) throw new CredentialRejected('bot_token', `Telegram does not accept this bot token (${me.description}): copy it again from @BotFather`);
      const botId = Number(me.result.id);
      const botName = str(me.result.username);
      const chat = await bot(botToken, 'getChat', { chat_id: chatId });
      if (!chat.ok) throw new CredentialRejected('chat_id', `Telegram has no chat ${chatId} for @${botName} (${chat.description}): add the bot to the channel or group first`);
      const type = str(chat.result.type);
      if (type !== 'private') {
        const member = await bot(botToken, 'getChatMember', { chat_id: chatId, user_id: botId });
        const status = str(member.result.status);
        const canPost =
          member.ok &&
          (type === 'channel'
            ? status === 'administrator' && member.result.can_post_messages !== false
            : status === 'administrator' || status === 'member' || (status === 'restricted' && member.result.can_send_messages === true));
        if (!canPost) {
          const need = type === 'channel' ? 'an administrator of the channel with the right to post messages' : 'a member of the group allowed to send messages';
          throw new CredentialRejected('chat_id', `@${botName} cannot post in ${chatId} (${member.ok ? `it is ${status || 'not a member'}` : member.description}): make it ${need}`);
        }
      }
      const id = str(chat.result.id);
      const username = str(chat.result.username);
      const title = str(chat.result.title) || [str(chat.result.first_name), str(chat.result.last_name)].filter(Boolean).join(' ');
      const identity: Identity = {
        externalId: `${botId}:${id}`,
        username: username || title || id,
        displayName: title || username,
        avatarUrl: '',
        credentials: { chat_id: id, channel_username: username, bot_username: botName, chat_type: type },
      };
      return { tokens: { accessToken: botToken, extras: {} }, identity };
    },

    async refresh(platform: Platform, credentials) {
      if (platform === 'telegram') throw new PlatformAuthError('invalid_grant', 'Telegram refused the bot token (revoked or regenerated in @BotFather): enter the new token');
      if (platform !== 'bluesky') throw new PlatformAuthError('invalid_grant', `${platform} credentials cannot be renewed here: enter them again`);
      const pds = credentials.pds_url ?? '';
      if (credentials.refresh_token) {
        const answer = await fetchJson(`${pds}/xrpc/com.atproto.server.refreshSession`, { method: 'POST', headers: { authorization: `Bearer ${credentials.refresh_token}` } });
        transientIf(answer, new URL(pds).host);
        if (answer.ok) return sessionTokens(answer.body);
        const { error } = xrpcError(answer);
        if (error === 'AccountTakedown') throw new PlatformAuthError('checkpoint', 'the account was taken down by its PDS');
        // ExpiredToken / InvalidToken: the refresh JWT is dead; a new session from the app password follows.
      }
      if (!credentials.app_password) throw new PlatformAuthError('invalid_grant', 'the session expired and no app password is stored');
      const answer = await createSession(pds, credentials.identifier || credentials.did || '', credentials.app_password);
      if (answer.ok) return sessionTokens(answer.body);
      const { error, message } = xrpcError(answer);
      if (error === 'AccountTakedown' || error === 'AccountDeactivated') throw new PlatformAuthError('checkpoint', `${error}: ${message}`);
      if (answer.status === 400 || answer.status === 401) throw new PlatformAuthError('invalid_grant', `the app password was revoked (${error || answer.status}${message ? `: ${message}` : ''})`);
      throw new PlatformAuthError('transient', `${new URL(pds).host} answered ${answer.status}`);
    },
  };
}
