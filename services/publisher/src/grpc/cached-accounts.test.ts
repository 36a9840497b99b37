import { describe, expect, it } from 'vitest';
import type { TargetAccount } from '../connectors/types.js';
import { CachedAccounts } from './cached-accounts.js';

/** An accounts port that counts its lookups and answers the credentials current at the time. */
function accountsService() {
  const tokens = new Map<number, string>([
    [1, 'one-a'],
    [2, 'two-a'],
  ]);
  const asked: number[][] = [];
  let hold: Promise<void> | undefined;
  return {
    tokens,
    asked,
    holdNext(until: Promise<void>) {
      hold = until;
    },
    port: {
      targets: async (workspaceId: number, ids: number[]): Promise<TargetAccount[]> => {
        asked.push(ids);
        const answer = ids.flatMap((id) =>
          tokens.has(id) && workspaceId === 7 ? [{ socialAccountId: id, platform: 'twitter' as const, username: `u${id}`, credentials: { access_token: tokens.get(id)! } }] : [],
        );
        const wait = hold;
        hold = undefined;
        await wait;
        return answer;
      },
      markDisconnected: async () => undefined,
    },
  };
}
const token = (accounts: TargetAccount[]) => accounts.map((a) => a.credentials.access_token);

describe('cached publishing credentials', () => {
  it('asks accounts once per account within the TTL, and again after it', async () => {
    let now = 0;
    const service = accountsService();
    const cache = new CachedAccounts(service.port, 30_000, () => now);
    expect(token(await cache.targets(7, [1, 2]))).toEqual(['one-a', 'two-a']);
    service.tokens.set(1, 'one-b');
    expect(token(await cache.targets(7, [2, 1]))).toEqual(['two-a', 'one-a']);
    expect(service.asked).toEqual([[1, 2]]);
    now = 30_000;
    expect(token(await cache.targets(7, [1]))).toEqual(['one-b']);
    expect(service.asked).toEqual([[1, 2], [1]]);
  });

  it('asks only for the accounts it does not hold, never answers another workspace, and keeps no missing account', async () => {
    const service = accountsService();
    const cache = new CachedAccounts(service.port, 30_000);
    await cache.targets(7, [1]);
    expect(token(await cache.targets(7, [1, 2, 3]))).toEqual(['one-a', 'two-a']);
    expect(await cache.targets(8, [1])).toEqual([]);
    await cache.targets(7, [3]);
    expect(service.asked).toEqual([[1], [2, 3], [1], [3]]);
  });

  it('drops an account on forget (a change announced, a refresh after a 401, a disconnect) and all on forgetAll', async () => {
    const service = accountsService();
    const cache = new CachedAccounts(service.port, 30_000);
    await cache.targets(7, [1, 2]);
    service.tokens.set(1, 'one-b');
    service.tokens.set(2, 'two-b');
    cache.forget(1);
    expect(token(await cache.targets(7, [1, 2]))).toEqual(['one-b', 'two-a']);
    await cache.markDisconnected(7, 1);
    service.tokens.set(1, 'one-c');
    expect(token(await cache.targets(7, [1]))).toEqual(['one-c']);
    cache.forgetAll();
    expect(token(await cache.targets(7, [2]))).toEqual(['two-b']);
  });

  it('does not keep what a lookup under way read when the account was forgotten meanwhile', async () => {
    const service = accountsService();
    const cache = new CachedAccounts(service.port, 30_000);
    let release!: () => void;
    service.holdNext(new Promise((r) => (release = r)));
    const stale = cache.targets(7, [1]);
    service.tokens.set(1, 'one-b');
    cache.forget(1);
    release();
    expect(token(await stale)).toEqual(['one-a']);
    expect(token(await cache.targets(7, [1]))).toEqual(['one-b']);
  });

  it('keeps nothing with a TTL of 0', async () => {
    const service = accountsService();
    const cache = new CachedAccounts(service.port, 0);
    await cache.targets(7, [1]);
    await cache.targets(7, [1]);
    expect(service.asked).toEqual([[1], [1]]);
  });
});
