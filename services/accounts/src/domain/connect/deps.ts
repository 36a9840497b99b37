import type { Platform } from '@spa/vocabulary';
import type { AccountsDeps } from '../ports.js';
import type { ConnectionStore, CredentialAuth, OAuthClient } from './ports.js';

export interface ConnectLog {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}

export interface ConnectConfig {
  /** Public base URL of the gateway serving /oauth/{platform}/callback; connecting by OAuth needs it. */
  callbackBaseUrl: string | undefined;
  /** Each platform's OAuth client (absent: the platform cannot be connected by OAuth here). */
  clients: Partial<Record<Platform, { id: string; secret: string }>>;
  /** Key of the state MAC (derived from SECRETS_KEY). */
  stateKey: Buffer;
  /** A connected account's token is refreshed this long before it expires. */
  refreshAheadMs: number;
  /** Bluesky's PDS when the user names none (https://bsky.social; the sandbox's stand-in in a sandbox deployment). */
  defaultPdsUrl: string;
}

export interface ConnectDeps extends AccountsDeps {
  connections: ConnectionStore;
  oauth: OAuthClient;
  credentialAuth: CredentialAuth;
  connectConfig: ConnectConfig;
  log: ConnectLog;
}
