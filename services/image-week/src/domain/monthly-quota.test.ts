import { AppError } from '@spa/errors';
import { connectMongo, syncIndexes, type Connection } from '@spa/mongo';
import { dropDatabases, TEST_INFRA, uniqueName } from '@spa/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MongoRunQuotaClaims } from '../data/claims.js';
import { registerModels } from '../data/models.js';
import { claimRunSlot, localMonth } from './monthly-quota.js';
import type { AccountsPort } from './ports.js';

/** The monthly run quota on the real MongoDB-compatible store (FerretDB locally), two connections as two replicas. */
const dbName = uniqueName('t_iw_quota');
const connections: Connection[] = [];
let stores: MongoRunQuotaClaims[] = [];

beforeAll(async () => {
  for (let i = 0; i < 2; i++) connections.push(await connectMongo(TEST_INFRA.mongoUrl, dbName));
  stores = connections.map((c) => new MongoRunQuotaClaims(registerModels(c)));
  await syncIndexes(connections[0]!);
});
afterAll(async () => {
  await Promise.all(connections.map((c) => c.close()));
  await dropDatabases([dbName]);
});

const accounts = (tier: string, timezone = 'UTC'): AccountsPort => ({
  plan: async () => ({ tier, timezone }),
  socialAccounts: async () => [],
  postingSchedule: async () => undefined,
});

describe('monthly Quote Week run quota', () => {
  it('gives exactly 4 of 20 concurrent Starter claims a run, the rest quota_exceeded', async () => {
    const now = new Date('2026-11-15T12:00:00Z');
    const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => claimRunSlot({ accounts: accounts('starter'), quota: stores[i % 2]! }, 101, 1000 + i, now)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(4);
    for (const r of results.filter((x): x is PromiseRejectedResult => x.status === 'rejected')) {
      expect(r.reason).toBeInstanceOf(AppError);
      expect((r.reason as AppError).code).toBe('quota_exceeded');
    }
    expect((await stores[0]!.claimed(101, '2026-11')).sort()).toEqual([1, 2, 3, 4]);
  });

  it('allows 12 on Pro and Team and none without a paid plan', async () => {
    const now = new Date('2026-11-15T12:00:00Z');
    for (const [ws, tier] of [
      [201, 'pro'],
      [202, 'team'],
    ] as const) {
      for (let i = 0; i < 12; i++) await claimRunSlot({ accounts: accounts(tier), quota: stores[0]! }, ws, i + 1, now);
      await expect(claimRunSlot({ accounts: accounts(tier), quota: stores[0]! }, ws, 99, now)).rejects.toMatchObject({ code: 'quota_exceeded' });
    }
    await expect(claimRunSlot({ accounts: accounts('free'), quota: stores[0]! }, 203, 1, now)).rejects.toMatchObject({ code: 'quota_exceeded' });
  });

  it('counts the calendar month of the workspace time zone, and a released slot is free again', async () => {
    // 2026-11-30 23:30 UTC is already December in Berlin.
    const now = new Date('2026-11-30T23:30:00Z');
    expect(localMonth(now, 'Europe/Berlin')).toBe('2026-12');
    expect(localMonth(now, 'America/New_York')).toBe('2026-11');
    expect(localMonth(now, 'Not/AZone')).toBe('2026-11');
    const month = await claimRunSlot({ accounts: accounts('starter', 'Europe/Berlin'), quota: stores[0]! }, 301, 7, now);
    expect(month).toBe('2026-12');
    for (let i = 0; i < 3; i++) await claimRunSlot({ accounts: accounts('starter', 'Europe/Berlin'), quota: stores[1]! }, 301, 10 + i, now);
    await expect(claimRunSlot({ accounts: accounts('starter', 'Europe/Berlin'), quota: stores[0]! }, 301, 20, now)).rejects.toMatchObject({ code: 'quota_exceeded' });
    await stores[0]!.release(301, '2026-12', 7);
    await expect(claimRunSlot({ accounts: accounts('starter', 'Europe/Berlin'), quota: stores[0]! }, 301, 21, now)).resolves.toBe('2026-12');
  });
});
