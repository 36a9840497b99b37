import type { DisconnectReason, EventKind } from '@spa/vocabulary';
import type { SocialAccount } from './model.js';

/** A public event a change of a social account announces: written through the outbox with the change. */
export interface AccountEvent {
  kind: Extract<EventKind, `account.${string}`>;
  /**
   * Names the change the event announces (with its kind, the event id): the same for every write that makes the
   * same change, so writers racing to make it (two failed publishes marking one account disconnected) announce it once.
   */
  key: string;
  workspaceId: number;
  occurredAt: Date;
  /** The kind's public `data` (OpenAPI document, webhooks section). */
  data: Record<string, unknown>;
}

type Named = Pick<SocialAccount, 'id' | 'workspaceId' | 'platform' | 'username'>;
/** The connection an event is about: the account and when it was (re)connected. */
type Connection = Named & Pick<SocialAccount, 'connectedAt' | 'createdAt'>;
const period = (a: Connection) => `${a.id}@${(a.connectedAt ?? a.createdAt).getTime()}`;
const about = (a: Named) => ({ social_account_id: a.id, platform: a.platform, username: a.username });

export const connectedEvent = (a: Named & Pick<SocialAccount, 'sandbox'>, reconnected: boolean, at: Date): AccountEvent => ({
  kind: 'account.connected',
  key: `${a.id}@${at.getTime()}`,
  workspaceId: a.workspaceId,
  occurredAt: at,
  data: { ...about(a), reconnected, sandbox: a.sandbox },
});

export const disconnectedEvent = (a: Connection, reason: DisconnectReason, message: string, at: Date): AccountEvent => ({
  kind: 'account.disconnected',
  key: period(a),
  workspaceId: a.workspaceId,
  occurredAt: at,
  data: { ...about(a), reason, message },
});

export const reauthRequiredEvent = (a: Connection & Pick<SocialAccount, 'tokenExpiresAt'>, message: string, at: Date): AccountEvent => ({
  kind: 'account.reauth_required',
  key: period(a),
  workspaceId: a.workspaceId,
  occurredAt: at,
  data: { ...about(a), reason: 'invalid_grant', message, token_expires_at: a.tokenExpiresAt?.toISOString() ?? null },
});

export const expiringEvent = (a: Named, expiresAt: Date, at: Date): AccountEvent => ({
  kind: 'account.expiring',
  key: `${a.id}@${expiresAt.getTime()}`,
  workspaceId: a.workspaceId,
  occurredAt: at,
  data: { ...about(a), token_expires_at: expiresAt.toISOString(), days_left: Math.max(0, Math.floor((expiresAt.getTime() - at.getTime()) / 86_400_000)) },
});
