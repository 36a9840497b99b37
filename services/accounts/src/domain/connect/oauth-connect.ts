import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { AppError, invalidParameters } from '@spa/errors';
import { OAUTH_PLATFORMS } from '@spa/platforms';
import { PLATFORMS, type Platform } from '@spa/vocabulary';
import { getWorkspace } from '../workspaces.js';
import { checkBaseUrl } from './base-url.js';
import type { ConnectDeps } from './deps.js';
import { PlatformAuthError } from './ports.js';
import { saveConnectedAccount } from './save-account.js';

export const STATE_TTL_MS = 10 * 60_000;

/** Why a callback connected nothing: shown on the callback page. */
export class ConnectRefused extends AppError {
  constructor(message: string) {
    super('INVALID_STATE', message);
  }
}

const redirectUriOf = (base: string, platform: Platform) => `${base.replace(/\/+$/, '')}/oauth/${platform}/callback`;

/** The MAC binding a state to its workspace, platform and PKCE verifier. */
function stateMac(key: Buffer, id: string, workspaceId: number, platform: string, verifier: string): Buffer {
  return createHmac('sha256', key)
    .update(`${id}|${workspaceId}|${platform}|${createHash('sha256').update(verifier).digest('base64url')}`)
    .digest();
}

/**
 * The authorization URL that starts connecting `platform` to the workspace: a fresh single-use state
 * (10 minutes) bound to the workspace, the platform and the PKCE verifier. Mastodon first registers
 * the app on the instance.
 */
export async function startConnect(deps: ConnectDeps, input: { workspaceId: number; platform: string; instanceUrl?: string }): Promise<{ url: string; expiresAt: Date }> {
  await getWorkspace(deps, input.workspaceId);
  if (!(PLATFORMS as readonly string[]).includes(input.platform)) throw invalidParameters([`platform must be one of ${PLATFORMS.join(', ')}`]);
  const platform = input.platform as Platform;
  const facts = OAUTH_PLATFORMS[platform];
  if (!facts) throw invalidParameters([`platform: ${platform} connects with credentials, not OAuth (use account connect --platform ${platform})`]);
  const base = deps.connectConfig.callbackBaseUrl;
  if (!base) throw invalidParameters(['OAUTH_CALLBACK_BASE_URL is not configured: OAuth connections are off on this deployment']);
  const redirectUri = redirectUriOf(base, platform);
  let client = deps.connectConfig.clients[platform];
  let instanceUrl: string | undefined;
  if (facts.perInstance) {
    if (!input.instanceUrl) throw invalidParameters(["instance_url is required for mastodon (the instance's base URL)"]);
    instanceUrl = checkBaseUrl(input.instanceUrl, 'instance_url', 'https://mastodon.social');
    const app = await deps.oauth.registerApp!(instanceUrl, redirectUri).catch((err: unknown) => {
      throw new AppError('SERVICE_UNAVAILABLE', `Could not register the app on ${instanceUrl}: ${(err as Error).message}`);
    });
    client = { id: app.clientId, secret: app.clientSecret };
  } else if (!client) {
    throw invalidParameters([`platform: ${platform} has no OAuth client configured (set ${`OAUTH_${platform.toUpperCase()}`}_CLIENT_ID and _CLIENT_SECRET)`]);
  }
  const verifier = randomBytes(32).toString('base64url');
  const id = randomBytes(16).toString('base64url');
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + STATE_TTL_MS);
  await deps.connections.insertState({
    id,
    workspaceId: input.workspaceId,
    platform,
    instanceUrl,
    createdAt: now,
    expiresAt,
    sealed: deps.secrets.encrypt(JSON.stringify({ verifier, ...(facts.perInstance ? { client_id: client.id, client_secret: client.secret } : {}) })),
  });
  const state = `${id}.${stateMac(deps.connectConfig.stateKey, id, input.workspaceId, platform, verifier).toString('base64url')}`;
  const codeChallenge = facts.pkce === 'S256' ? createHash('sha256').update(verifier).digest('base64url') : undefined;
  return { url: deps.oauth.authorizationUrl(platform, { clientId: client.id, redirectUri, state, codeChallenge, instanceUrl }), expiresAt };
}

export interface CallbackInput {
  platform: string;
  state: string;
  code: string;
  error: string;
  errorDescription: string;
}

/**
 * The platform's redirect back: checks the state (known, MAC in constant time, this platform, not
 * expired, first use), then exchanges the code, reads the account's identity and stores it. Anything
 * wrong connects nothing and says why (ConnectRefused).
 */
export async function completeConnect(deps: ConnectDeps, input: CallbackInput) {
  const platform = input.platform as Platform;
  if (!OAUTH_PLATFORMS[platform]) throw new ConnectRefused(`"${input.platform}" is not a platform connected by OAuth.`);
  const [id, mac] = input.state.split('.');
  if (!id || !mac) throw new ConnectRefused('The link is missing its state or the state is malformed. Start connecting again from the dashboard.');
  const record = await deps.connections.findState(id);
  if (!record) throw new ConnectRefused('This connection link is unknown (tampered with, or from another deployment). Start connecting again.');
  const sealed = JSON.parse(deps.secrets.decrypt(record.sealed)) as { verifier: string; client_id?: string; client_secret?: string };
  const expected = stateMac(deps.connectConfig.stateKey, record.id, record.workspaceId, record.platform, sealed.verifier);
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new ConnectRefused('The state does not match the one issued for this workspace and platform (tampered with). Nothing was connected; start again.');
  }
  if (record.platform !== platform) throw new ConnectRefused(`This link was issued to connect ${record.platform}, not ${platform}. Nothing was connected.`);
  if (record.expiresAt.getTime() <= deps.clock.now().getTime()) throw new ConnectRefused('This connection link expired (links are valid for 10 minutes). Start connecting again.');
  if (!(await deps.connections.claimStateUse(record.id, deps.clock.now()))) throw new ConnectRefused('This connection link was already used. Start connecting again to connect another account.');
  if (input.error) {
    const what = input.error === 'access_denied' ? 'Access was denied on the platform, so nothing was connected.' : `The platform refused: ${input.error}.`;
    throw new ConnectRefused(`${what}${input.errorDescription ? ` (${input.errorDescription.slice(0, 200)})` : ''}`);
  }
  if (!input.code) throw new ConnectRefused('The platform sent no authorization code. Nothing was connected.');
  const base = deps.connectConfig.callbackBaseUrl;
  const client = sealed.client_id ? { id: sealed.client_id, secret: sealed.client_secret ?? '' } : deps.connectConfig.clients[platform];
  if (!base || !client) throw new ConnectRefused(`${platform} is no longer configured on this deployment.`);
  try {
    const tokens = await deps.oauth.exchangeCode(platform, { client, code: input.code, redirectUri: redirectUriOf(base, platform), codeVerifier: sealed.verifier, instanceUrl: record.instanceUrl });
    const identity = await deps.oauth.identify(platform, tokens, record.instanceUrl);
    if (identity.incomplete) throw new ConnectRefused(identity.incomplete);
    const extra = {
      ...(record.instanceUrl ? { instance_url: record.instanceUrl } : {}),
      ...(sealed.client_id ? { client_id: sealed.client_id, client_secret: sealed.client_secret ?? '' } : {}),
    };
    const saved = await saveConnectedAccount(deps, { workspaceId: record.workspaceId, platform, identity, tokens, extra });
    return { ...saved, workspaceId: record.workspaceId, platform, username: identity.username, displayName: identity.displayName };
  } catch (err) {
    if (err instanceof PlatformAuthError) {
      deps.log.warn({ platform, workspace_id: record.workspaceId, kind: err.kind, error: err.message }, 'oauth callback refused by the platform');
      throw new ConnectRefused(
        err.kind === 'transient'
          ? `${platform} did not complete the connection (${err.message}). Try again in a moment.`
          : `${platform} refused the authorization code (already used or expired): ${err.message}. Start connecting again.`,
      );
    }
    throw err;
  }
}
