import { SocialAccountCredentialsChanged } from '@spa/contracts/events/v1/accounts';
import type { Logger } from '@spa/logger';
import { credentialsChangedSubject, type NatsConnection } from '@spa/nats';

/** What drops cached credentials: one account's, or all (the announcements of a while may be lost). */
export interface CredentialsCache {
  forget(socialAccountId: number): void;
  forgetAll(): void;
}

/**
 * Listens to accounts' `SocialAccountCredentialsChanged` (core NATS, every publisher replica hears
 * each) and drops the account's cached credentials; after a reconnection to NATS, when announcements
 * may have been missed, drops them all.
 */
export function forgetChangedCredentials(nc: NatsConnection, namespace: string, cache: CredentialsCache, logger: Logger): { stop(): Promise<void> } {
  const subscription = nc.subscribe(credentialsChangedSubject(namespace), {
    callback: (err, message) => {
      if (err) return logger.warn({ err }, 'credential change announcements: subscription failed');
      try {
        cache.forget(SocialAccountCredentialsChanged.decode(message.data).socialAccountId);
      } catch (e) {
        logger.warn({ err: e }, 'credential change announcement not understood; dropping every cached credential');
        cache.forgetAll();
      }
    },
  });
  // Ends with the connection.
  void (async () => {
    for await (const s of nc.status()) if (s.type === 'reconnect') cache.forgetAll();
  })().catch(() => undefined);
  return { stop: async () => subscription.unsubscribe() };
}
