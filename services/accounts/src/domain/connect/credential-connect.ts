import { AppError, invalidParameters } from '@spa/errors';
import { CREDENTIAL_PLATFORMS } from '@spa/platforms';
import type { Platform } from '@spa/vocabulary';
import { getWorkspace } from '../workspaces.js';
import { checkBaseUrl } from './base-url.js';
import type { ConnectDeps } from './deps.js';
import { CredentialRejected, PlatformAuthError } from './ports.js';
import { saveConnectedAccount } from './save-account.js';

export interface CredentialInput {
  workspaceId: number;
  platform: string;
  identifier: string;
  appPassword: string;
  pdsUrl: string;
  botToken: string;
  chatId: string;
}

/** A bot token goes into the Bot API's path: only the characters Telegram's tokens are made of. */
const BOT_TOKEN = /^[A-Za-z0-9:_-]{1,200}$/;
/** A chat: its numeric id (-100… for channels and supergroups) or a public @username. */
const CHAT_ID = /^(-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{3,31})$/;

/** Every problem of the entered fields at once, before the platform is asked anything. */
function checkFields(platform: Platform, input: CredentialInput): string[] {
  const problems: string[] = [];
  if (platform === 'bluesky') {
    if (!input.identifier.trim() || input.identifier.trim().length > 253) problems.push('identifier must be the account handle (e.g. alice.bsky.social) or its email, 1–253 characters');
    if (!input.appPassword || input.appPassword.length > 100) problems.push('app_password must be an app password (Settings → Privacy and security → App passwords), 1–100 characters');
  } else {
    if (!BOT_TOKEN.test(input.botToken)) problems.push('bot_token must be the token @BotFather gave (digits, a colon, then letters, digits, _ and -)');
    if (!CHAT_ID.test(input.chatId.trim())) problems.push('chat_id must be the chat id (e.g. -1001234567890) or a public @channelname');
  }
  return problems;
}

/**
 * Connects an account by the credentials its platform uses instead of OAuth: a Bluesky app password
 * (a session created on the PDS) or a Telegram bot token and chat (the bot must be able to post there).
 * The platform checks them first; anything it refuses answers INVALID_PARAMETERS naming the field, and
 * nothing is stored. What is stored is sealed; a reconnect keeps the account's id.
 */
export async function connectWithCredentials(deps: ConnectDeps, input: CredentialInput) {
  await getWorkspace(deps, input.workspaceId);
  if (!(CREDENTIAL_PLATFORMS as readonly string[]).includes(input.platform)) {
    throw invalidParameters([`platform must be one of ${CREDENTIAL_PLATFORMS.join(', ')} (the other platforms connect with OAuth)`]);
  }
  const platform = input.platform as Platform;
  const problems = checkFields(platform, input);
  if (problems.length) throw invalidParameters(problems);
  try {
    const checked =
      platform === 'bluesky'
        ? await deps.credentialAuth.blueskySession({
            pdsUrl: input.pdsUrl.trim() ? checkBaseUrl(input.pdsUrl.trim(), 'pds_url', 'https://bsky.social') : deps.connectConfig.defaultPdsUrl,
            identifier: input.identifier.trim().replace(/^@/, ''),
            appPassword: input.appPassword,
          })
        : await deps.credentialAuth.telegramBot({ botToken: input.botToken, chatId: input.chatId.trim() });
    const saved = await saveConnectedAccount(deps, { workspaceId: input.workspaceId, platform, identity: checked.identity, tokens: checked.tokens });
    return { ...saved, platform, username: checked.identity.username, displayName: checked.identity.displayName };
  } catch (err) {
    if (err instanceof CredentialRejected) {
      deps.log.info({ workspace_id: input.workspaceId, platform, field: err.field }, 'credentials refused by the platform; nothing stored');
      throw invalidParameters([`${err.field}: ${err.message}`]);
    }
    if (err instanceof PlatformAuthError) {
      deps.log.warn({ workspace_id: input.workspaceId, platform, error: err.message }, 'credentials could not be checked with the platform');
      throw new AppError('SERVICE_UNAVAILABLE', `${platform} could not check the credentials (${err.message}); nothing was stored, try again in a moment`);
    }
    throw err;
  }
}
