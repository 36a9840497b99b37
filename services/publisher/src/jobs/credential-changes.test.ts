/**
 * Accounts' credential change announcements reach the publisher's cache over real NATS: the announced
 * account is asked for again at its next job, the others are not.
 */
import { randomBytes } from 'node:crypto';
import { SocialAccountCredentialsChanged } from '@spa/contracts/events/v1/accounts';
import { createLogger } from '@spa/logger';
import { connectNats, credentialsChangedSubject, type NatsConnection } from '@spa/nats';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CachedAccounts } from '../grpc/cached-accounts.js';
import { forgetChangedCredentials } from './credential-changes.js';

const namespace = `t_creds_${randomBytes(3).toString('hex')}`;
let publisherSide: NatsConnection;
let accountsSide: NatsConnection;
beforeAll(async () => {
  publisherSide = await connectNats(process.env.NATS_URL ?? 'nats://127.0.0.1:4222', 'credential-changes-test-publisher');
  accountsSide = await connectNats(process.env.NATS_URL ?? 'nats://127.0.0.1:4222', 'credential-changes-test-accounts');
});
afterAll(async () => {
  await publisherSide?.drain();
  await accountsSide?.drain();
});

it('an announced change drops that account from the cache, and only that one', async () => {
  const asked: number[][] = [];
  const cache = new CachedAccounts(
    {
      targets: async (_workspaceId, ids) => (
        asked.push(ids),
        ids.map((id) => ({ socialAccountId: id, platform: 'twitter' as const, username: 'u', credentials: { access_token: `t${asked.length}` } }))
      ),
      markDisconnected: async () => undefined,
    },
    60_000,
  );
  const listener = forgetChangedCredentials(publisherSide, namespace, cache, createLogger('credential-changes-test', 'error'));
  await publisherSide.flush();
  await cache.targets(1, [11, 12]);
  accountsSide.publish(credentialsChangedSubject(namespace), SocialAccountCredentialsChanged.encode({ socialAccountId: 11, occurredAt: new Date().toISOString() }).finish());
  await accountsSide.flush();
  await publisherSide.flush();
  const again = await cache.targets(1, [11, 12]);
  expect(asked).toEqual([[11, 12], [11]]);
  expect(again.map((a) => a.credentials.access_token)).toEqual(['t2', 't1']);
  await listener.stop();
});
