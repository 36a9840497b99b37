import { SocialAccountCredentialsChanged } from '@spa/contracts/events/v1/accounts';
import type { Logger } from '@spa/logger';
import { credentialsChangedSubject, type NatsConnection } from '@spa/nats';
import type { ConnectionChange, ConnectionStore, OAuthStateRecord } from '../domain/connect/ports.js';

/**
 * The connection store, announcing every change of an account's stored connection (connected again,
 * token refreshed, disconnected) once it is written: `SocialAccountCredentialsChanged` on core NATS,
 * so publishers drop their cached credentials at once. Best effort: the change stands if the message
 * is lost, and the publishers' cache expires on its own (PUBLISHER_CREDENTIALS_TTL_MS).
 */
export class AnnouncingConnectionStore implements ConnectionStore {
  private readonly subject: string;

  constructor(
    private readonly inner: ConnectionStore,
    private readonly nc: NatsConnection,
    namespace: string,
    private readonly logger: Logger,
  ) {
    this.subject = credentialsChangedSubject(namespace);
  }

  async saveConnection(socialAccountId: number, change: ConnectionChange): Promise<void> {
    await this.inner.saveConnection(socialAccountId, change);
    try {
      this.nc.publish(this.subject, SocialAccountCredentialsChanged.encode({ socialAccountId, occurredAt: new Date().toISOString() }).finish());
    } catch (err) {
      this.logger.warn({ err, socialAccountId }, 'credential change not announced; publishers see it when their cache expires');
    }
  }

  insertState(s: OAuthStateRecord): Promise<void> {
    return this.inner.insertState(s);
  }
  findState(id: string): Promise<OAuthStateRecord | null> {
    return this.inner.findState(id);
  }
  claimStateUse(id: string, at: Date): Promise<boolean> {
    return this.inner.claimStateUse(id, at);
  }
  claimIdentity(key: string, socialAccountId: number): Promise<number> {
    return this.inner.claimIdentity(key, socialAccountId);
  }
  acquireLease(socialAccountId: number, holder: string, now: Date, ttlMs: number): Promise<boolean> {
    return this.inner.acquireLease(socialAccountId, holder, now, ttlMs);
  }
  releaseLease(socialAccountId: number, holder: string): Promise<void> {
    return this.inner.releaseLease(socialAccountId, holder);
  }
  dueForRefresh(before: Date, limit: number, now?: Date): ReturnType<ConnectionStore['dueForRefresh']> {
    return this.inner.dueForRefresh(before, limit, now);
  }
  expiringBetween(now: Date, before: Date, limit: number): ReturnType<ConnectionStore['expiringBetween']> {
    return this.inner.expiringBetween(now, before, limit);
  }
  findAccount(socialAccountId: number): ReturnType<ConnectionStore['findAccount']> {
    return this.inner.findAccount(socialAccountId);
  }
}
