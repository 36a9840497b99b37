import { AppError } from '@spa/errors';
import { connectMongo, syncIndexes, type Connection } from '@spa/mongo';
import { dropDatabases, TEST_INFRA, uniqueName } from '@spa/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MongoRunQuotaClaims } from '../data/claims.js';
import { registerModels } from '../data/models.js';
import { MongoRunStore } from '../data/mongo-store.js';
import { claimRunSlot, localMonth, runQuota } from './monthly-quota.js';
import type { AccountsPort, ImageWeekDeps } from './ports.js';
import { createRun } from './runs.js';

/** The monthly run quota on the real MongoDB-compatible store (FerretDB locally), two connections as two replicas. */
const dbName = uniqueName('t_iw_quota');
const connections: Connection[] = [];
let stores: MongoRunQuotaClaims[] = [];
let runStores: MongoRunStore[] = [];

beforeAll(async () => {
  for (let i = 0; i < 2; i++) connections.push(await connectMongo(TEST_INFRA.mongoUrl, dbName));
  const models = connections.map((c) => registerModels(c));
  stores = models.map((m) => new MongoRunQuotaClaims(m));
  runStores = connections.map((c, i) => new MongoRunStore(c, models[i]!));
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
    expect((await stores[0]!.claimed(101, '2026-11')).map((c) => c.slot).sort()).toEqual([1, 2, 3, 4]);
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
    const slot = await claimRunSlot({ accounts: accounts('starter', 'Europe/Berlin'), quota: stores[0]! }, 301, 7, now);
    expect(slot).toMatchObject({ month: '2026-12', taken: true });
    // Claimed again for the same run: answered its slot, no second one taken.
    expect(await claimRunSlot({ accounts: accounts('starter', 'Europe/Berlin'), quota: stores[1]! }, 301, 7, now)).toEqual({ ...slot, taken: false });
    for (let i = 0; i < 3; i++) await claimRunSlot({ accounts: accounts('starter', 'Europe/Berlin'), quota: stores[1]! }, 301, 10 + i, now);
    await expect(claimRunSlot({ accounts: accounts('starter', 'Europe/Berlin'), quota: stores[0]! }, 301, 20, now)).rejects.toMatchObject({ code: 'quota_exceeded' });
    await stores[0]!.release(301, '2026-12', slot.slot, 8); // not run 8's slot: nothing freed
    await expect(claimRunSlot({ accounts: accounts('starter', 'Europe/Berlin'), quota: stores[0]! }, 301, 20, now)).rejects.toMatchObject({ code: 'quota_exceeded' });
    await stores[0]!.release(301, '2026-12', slot.slot, 7);
    await expect(claimRunSlot({ accounts: accounts('starter', 'Europe/Berlin'), quota: stores[0]! }, 301, 21, now)).resolves.toEqual({ ...slot, taken: true });
  });
});

describe('keyed creates (content plans resuming a run)', () => {
  const input = (key: string) => ({ topic: 'focus', platformConfig: { instagram: { social_account_id: 5 } }, idempotencyKey: key });
  /** createRun's dependencies as replica `i` has them (its own connection), accounts answering any id as Instagram. */
  const depsOf = (i: number): Parameters<typeof createRun>[0] => ({
    store: runStores[i]!,
    quota: stores[i]!,
    accounts: { ...accounts('starter'), socialAccounts: async (_ws, ids) => ids.map((id) => ({ id, platform: 'instagram', username: `acct${id}`, disconnected: false })) },
    jobs: { dispatch: async () => undefined },
    clock: { now: () => new Date('2026-10-10T12:00:00Z') },
    settings: { templateVersion: 'test' } as ImageWeekDeps['settings'],
    postClaims: {} as ImageWeekDeps['postClaims'],
  });

  it('6 concurrent creates of one key on two replicas make one run holding one slot; a repeat answers it', async () => {
    const ws = 401;
    // Five workspaces raced the same way: a race that leaves two slots rarely shows in one.
    for (let n = 1; n <= 5; n++) {
      const results = await Promise.all(Array.from({ length: 6 }, (_, i) => createRun(depsOf(i % 2), ws * 10 + n, input('content-plan-run:1:manual:a:0'))));
      expect(new Set(results.map((r) => r.id)).size).toBe(1);
      expect((await depsOf(0).store.runs(ws * 10 + n)).map((r) => r.id)).toEqual([results[0]!.id]);
      expect((await stores[0]!.claimed(ws * 10 + n, '2026-10')).map((c) => c.runId)).toEqual([results[0]!.id]);
    }
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => createRun(depsOf(i % 2), ws, input('content-plan-run:1:manual:a:0'))));
    expect(await runQuota(depsOf(0), ws, new Date('2026-10-10T12:00:00Z'))).toMatchObject({ used: 1, limit: 4 });
    expect((await createRun(depsOf(1), ws, input('content-plan-run:1:manual:a:0'))).id).toBe(results[0]!.id);
    expect((await createRun(depsOf(1), ws, input('content-plan-run:1:manual:a:1'))).id).not.toBe(results[0]!.id);
    expect(await runQuota(depsOf(0), ws, new Date('2026-10-10T12:00:00Z'))).toMatchObject({ used: 2 });
  });

  it('a create that died after binding its key and taking its slot is completed by the retry with the same id and slot', async () => {
    const ws = 402;
    const deps = depsOf(0);
    const id = await deps.store.bindKey(ws, 'content-plan-run:2:manual:b:0', () => deps.store.newRunId());
    await claimRunSlot(deps, ws, id, new Date('2026-10-10T12:00:00Z'));
    // The process died here: the key and the slot exist, the run does not.
    const run = await createRun(depsOf(1), ws, input('content-plan-run:2:manual:b:0'));
    expect(run.id).toBe(id);
    expect(await runQuota(deps, ws, new Date('2026-10-10T12:00:00Z'))).toMatchObject({ used: 1 });
  });

  it('a keyed create whose insert fails gives its slot back, and the run a create of the same key stored still holds one, in either order', async () => {
    const gate = () => {
      let open: () => void = () => undefined;
      const opened = new Promise<void>((resolve) => (open = resolve));
      return { opened, open };
    };
    for (const [ws, order] of [
      [403, 'released before the run is stored'],
      [404, 'released after the run is stored'],
    ] as const) {
      const key = `content-plan-run:3:manual:${ws}:0`;
      const [aTook, aReleasing, aDone, bInserting, bDone] = [gate(), gate(), gate(), gate(), gate()];
      // Create A takes the slot, then its insert fails with a real error.
      const a = depsOf(0);
      a.store = Object.assign(Object.create(runStores[0]!) as MongoRunStore, {
        insertRun: async () => {
          aTook.open();
          throw new Error('store unavailable');
        },
      });
      a.quota = Object.assign(Object.create(stores[0]!) as MongoRunQuotaClaims, {
        release: async (...args: Parameters<MongoRunQuotaClaims['release']>) => {
          aReleasing.open();
          // Before: B has been answered this slot and waits to insert until A is done. After: B is done.
          await (order === 'released before the run is stored' ? bInserting.opened : bDone.opened);
          return stores[0]!.release(...args);
        },
      });
      // Create B, of the same key, is answered A's slot and stores the run.
      const b = depsOf(1);
      b.store = Object.assign(Object.create(runStores[1]!) as MongoRunStore, {
        insertRun: async (run: Parameters<MongoRunStore['insertRun']>[0]) => {
          bInserting.open();
          if (order === 'released before the run is stored') await aDone.opened;
          return runStores[1]!.insertRun(run);
        },
      });
      const first = createRun(a, ws, input(key)).finally(aDone.open);
      await (order === 'released before the run is stored' ? aTook.opened : aReleasing.opened);
      const second = createRun(b, ws, input(key)).finally(bDone.open);
      await expect(first).rejects.toThrow('store unavailable');
      const run = await second;
      expect((await depsOf(0).store.runs(ws)).map((r) => r.id)).toEqual([run.id]);
      expect(
        (await stores[0]!.claimed(ws, '2026-10')).map((c) => c.runId),
        order,
      ).toEqual([run.id]);
    }
  });
});
