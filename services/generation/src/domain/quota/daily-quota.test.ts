import { AppError } from '@spa/errors';
import { connectMongo, syncIndexes, type Connection } from '@spa/mongo';
import { dropDatabases, TEST_INFRA, uniqueName } from '@spa/testing';
import type { Tier } from '@spa/vocabulary';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DailyQuota } from './daily-quota.js';
import { MongoQuotaClaims } from '../../data/quota/mongo-claims.js';
import { parseDailyLimits } from './limits.js';
import { Generations } from '../writing/generations.js';
import type { Writer } from '../writing/writer.js';
import type { WorkspacePlan } from './ports.js';

/** Daily quota on the real MongoDB-compatible store (FerretDB 1.x locally), with a clock the tests move. */

// Every quota purges claims older than 3 days of its clock, so the tests sharing this database keep their clocks
// within 3 days (2026-03-06..09); the purge test has a database of its own.
const dbName = uniqueName('t_quota');
const purgeDbName = uniqueName('t_quota_purge');
const connections: Connection[] = [];
let store: MongoQuotaClaims;
let nextWorkspace = 1;

beforeAll(async () => {
  // Two connections (two pools) stand for two replicas of the generation service.
  for (const name of [dbName, dbName, purgeDbName]) connections.push(await connectMongo(TEST_INFRA.mongoUrl, name));
  store = new MongoQuotaClaims(connections[0]!);
  await syncIndexes(connections[0]!);
});
afterAll(async () => {
  await Promise.all(connections.map((c) => c.close()));
  await dropDatabases([dbName, purgeDbName]);
});

/** A quota over the shared store, its own plans table (workspace → plan) and a settable clock. */
function quotaFor(opts: { plans: Map<number, WorkspacePlan>; limits?: string; now: { value: Date }; store?: MongoQuotaClaims }) {
  return new DailyQuota({
    store: opts.store ?? store,
    plans: {
      planOf: async (id) => {
        const plan = opts.plans.get(id);
        if (!plan) throw new Error(`no plan for workspace ${id}`);
        return plan;
      },
    },
    limits: parseDailyLimits(opts.limits ?? ''),
    clock: { now: () => opts.now.value },
  });
}

function setup(plan: WorkspacePlan, limits: string, at: string, own?: MongoQuotaClaims) {
  const workspaceId = nextWorkspace++;
  const plans = new Map([[workspaceId, plan]]);
  const now = { value: new Date(at) };
  return { workspaceId, plans, now, quota: quotaFor({ plans, limits, now, store: own }) };
}

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe('daily quota: exact under concurrency', () => {
  it('lets exactly 50 of 60 concurrent consumes through a limit of 50, across two replicas', async () => {
    const { workspaceId, plans, now, quota } = setup({ tier: 'starter', timezone: 'Europe/Berlin' }, 'starter:50', '2026-03-06T10:00:00Z');
    const replica = quotaFor({ plans, limits: 'starter:50', now, store: new MongoQuotaClaims(connections[1]!) });
    const results = await Promise.allSettled(Array.from({ length: 60 }, (_, i) => (i % 2 ? quota : replica).consume(workspaceId, 1)));
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(50);
    expect(rejected).toHaveLength(10);
    for (const r of rejected) expect((r.reason as AppError).code).toBe('DAILY_LIMIT_EXCEEDED');
    expect(await quota.usage(workspaceId)).toMatchObject({ used: 50, remaining: 0, dailyLimit: 50 });
    expect(await store.countClaims(workspaceId, '2026-03-06')).toBe(50);
  });

  it('takes multi-unit consumes all or none: 15 concurrent consumes of 3 against 20 leave exactly 6 holders and no partial claim', async () => {
    const { workspaceId, quota } = setup({ tier: 'pro', timezone: 'UTC' }, 'pro:20', '2026-03-06T10:00:00Z');
    const results = await Promise.allSettled(Array.from({ length: 15 }, () => quota.consume(workspaceId, 3)));
    const succeeded = results.filter((r) => r.status === 'fulfilled').length;
    expect(succeeded).toBe(6);
    expect((await quota.usage(workspaceId)).used).toBe(18);
  });

  it('refuses a consume larger than what is left without taking any of it', async () => {
    const { workspaceId, quota } = setup({ tier: 'team', timezone: 'UTC' }, 'team:5', '2026-03-06T10:00:00Z');
    await quota.consume(workspaceId, 3);
    const err = await rejection(quota.consume(workspaceId, 3));
    expect(err.code).toBe('DAILY_LIMIT_EXCEEDED');
    expect((await quota.usage(workspaceId)).used).toBe(3);
    await quota.consume(workspaceId, 2);
    expect(await quota.usage(workspaceId)).toMatchObject({ used: 5, remaining: 0 });
  });

  it('gives refunded units back exactly, even when refunds run concurrently, and never below zero', async () => {
    const { workspaceId, quota } = setup({ tier: 'starter', timezone: 'UTC' }, 'starter:10', '2026-03-06T10:00:00Z');
    await quota.consume(workspaceId, 10);
    await rejection(quota.consume(workspaceId, 1));
    await Promise.all(Array.from({ length: 7 }, () => quota.refund(workspaceId, 1)));
    expect((await quota.usage(workspaceId)).used).toBe(3);
    await quota.refund(workspaceId, 5);
    expect((await quota.usage(workspaceId)).used).toBe(0);
    await quota.consume(workspaceId, 10);
    expect((await quota.usage(workspaceId)).remaining).toBe(0);
  });

  it('never refunds more than the day consumed, even when refunds race', async () => {
    const { workspaceId, quota } = setup({ tier: 'starter', timezone: 'UTC' }, 'starter:10', '2026-03-06T10:00:00Z');
    await quota.consume(workspaceId, 3);
    await Promise.all(Array.from({ length: 8 }, () => quota.refund(workspaceId, 1)));
    expect((await quota.usage(workspaceId)).used).toBe(0);
    await quota.consume(workspaceId, 10);
    expect((await rejection(quota.consume(workspaceId, 1))).code).toBe('DAILY_LIMIT_EXCEEDED');
    expect(await quota.usage(workspaceId)).toMatchObject({ used: 10, remaining: 0 });
  });

  it('stays exact when refunds race consumes: what is held is exactly what was consumed minus what was refunded', async () => {
    const { workspaceId, quota } = setup({ tier: 'starter', timezone: 'UTC' }, 'starter:20', '2026-03-06T10:00:00Z');
    await quota.consume(workspaceId, 10);
    const consumes = Array.from({ length: 15 }, () => quota.consume(workspaceId, 2));
    const refunds = Array.from({ length: 10 }, () => quota.refund(workspaceId, 1));
    const results = await Promise.allSettled([...consumes, ...refunds]);
    expect(results.slice(15).every((r) => r.status === 'fulfilled')).toBe(true);
    const succeeded = results.slice(0, 15).filter((r) => r.status === 'fulfilled').length;
    const { used } = await quota.usage(workspaceId);
    expect(used).toBe(10 + 2 * succeeded - 10);
    expect(used).toBeLessThanOrEqual(20);
    expect(succeeded).toBeGreaterThanOrEqual(5);
  });

  it('follows the plan: a free workspace has none, an upgrade raises the limit the same day', async () => {
    const { workspaceId, plans, quota } = setup({ tier: 'free', timezone: 'UTC' }, 'starter:2,pro:4', '2026-03-06T10:00:00Z');
    expect((await rejection(quota.consume(workspaceId, 1))).code).toBe('DAILY_LIMIT_EXCEEDED');
    plans.set(workspaceId, { tier: 'starter', timezone: 'UTC' });
    await quota.consume(workspaceId, 2);
    await rejection(quota.consume(workspaceId, 1));
    plans.set(workspaceId, { tier: 'pro', timezone: 'UTC' });
    await quota.consume(workspaceId, 2);
    expect(await quota.usage(workspaceId)).toMatchObject({ tier: 'pro', dailyLimit: 4, used: 4, remaining: 0 });
  });
});

describe('daily quota: idempotency keys (a retried batch is charged once)', () => {
  it('charges a key once per day: a repeat takes nothing, another key is charged, a keyed consume still respects the limit', async () => {
    const { workspaceId, quota } = setup({ tier: 'starter', timezone: 'UTC' }, 'starter:10', '2026-03-07T10:00:00Z');
    await quota.consume(workspaceId, 3, 'batch-a');
    await quota.consume(workspaceId, 3, 'batch-a');
    expect(await quota.usage(workspaceId)).toMatchObject({ used: 3 });
    await quota.consume(workspaceId, 3, 'batch-b');
    expect(await quota.usage(workspaceId)).toMatchObject({ used: 6 });
    expect((await rejection(quota.consume(workspaceId, 5, 'batch-c'))).code).toBe('DAILY_LIMIT_EXCEEDED');
    await quota.consume(workspaceId, 3, 'batch-b');
    expect(await quota.usage(workspaceId)).toMatchObject({ used: 6 });
  });

  it('holds exactly the units of a key when 12 consumes of it race across two replicas', async () => {
    const { workspaceId, plans, now, quota } = setup({ tier: 'pro', timezone: 'UTC' }, 'pro:50', '2026-03-07T10:00:00Z');
    const replica = quotaFor({ plans, limits: 'pro:50', now, store: new MongoQuotaClaims(connections[1]!) });
    await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 ? quota : replica).consume(workspaceId, 4, 'job-42')));
    expect(await quota.usage(workspaceId)).toMatchObject({ used: 4 });
    expect(await store.slotsOf(workspaceId, '2026-03-07', 'key:job-42')).toHaveLength(4);
  });

  it('GenerateBatch retried with its batch key is charged once; a batch that produced nothing is charged again on retry', async () => {
    const { workspaceId, quota } = setup({ tier: 'starter', timezone: 'UTC' }, 'starter:20', '2026-03-07T10:00:00Z');
    let failNext = false;
    const writer = {
      write: async ({ count }: { count: number }) => {
        if (failNext) throw new AppError('GENERATION_FAILED', 'the model failed');
        return { bodies: Array.from({ length: count }, (_, i) => `text ${i}`), degradedCount: 0, model: 'builtin' };
      },
    } as unknown as Writer;
    const generations = new Generations({ writer, quota, workspaces: {} as never, objects: {} as never, logger: { warn: () => undefined } });
    const batch = { category: 'focus', count: 5, platform: 'bluesky', idempotencyKey: 'image-week:plan:7:0' };
    // The caller crashed before it recorded the answer and asks again: still 5.
    expect((await generations.generateBatch(workspaceId, batch)).posts).toHaveLength(5);
    expect((await generations.generateBatch(workspaceId, batch)).posts).toHaveLength(5);
    expect(await quota.usage(workspaceId)).toMatchObject({ used: 5 });
    // Without a key every request is charged.
    await generations.generateBatch(workspaceId, { ...batch, idempotencyKey: undefined });
    expect(await quota.usage(workspaceId)).toMatchObject({ used: 10 });
    // A keyed batch that fails gives its units back; its retry is charged (once).
    failNext = true;
    await expect(generations.generateBatch(workspaceId, { ...batch, idempotencyKey: 'image-week:plan:7:1' })).rejects.toThrow('the model failed');
    expect(await quota.usage(workspaceId)).toMatchObject({ used: 10 });
    failNext = false;
    await generations.generateBatch(workspaceId, { ...batch, idempotencyKey: 'image-week:plan:7:1' });
    await generations.generateBatch(workspaceId, { ...batch, idempotencyKey: 'image-week:plan:7:1' });
    expect(await quota.usage(workspaceId)).toMatchObject({ used: 15 });
    expect((await rejection(generations.generateBatch(workspaceId, { ...batch, idempotencyKey: '' }))).code).toBe('INVALID_PARAMETERS');
  });
});

describe('daily quota: the local day', () => {
  it('answers retry_after = seconds until the next local midnight, and resets there', async () => {
    // 17:30 in New York (UTC-5): midnight is 6 h 30 min away.
    const { workspaceId, now, quota } = setup({ tier: 'starter', timezone: 'America/New_York' }, 'starter:3', '2026-03-06T22:30:00Z');
    await quota.consume(workspaceId, 3);
    const err = await rejection(quota.consume(workspaceId, 1));
    expect(err.code).toBe('DAILY_LIMIT_EXCEEDED');
    expect(err.httpStatus).toBe(429);
    expect(err.retryAfter).toBe(6.5 * 3600);
    expect(err.message).toContain('2026-03-07T05:00:00.000Z');
    expect((await quota.usage(workspaceId)).resetsAt).toBe('2026-03-07T05:00:00.000Z');

    now.value = new Date('2026-03-07T04:59:59.400Z');
    expect((await rejection(quota.consume(workspaceId, 1))).retryAfter).toBe(1);
    now.value = new Date('2026-03-07T05:00:00Z');
    await quota.consume(workspaceId, 3);
    expect(await quota.usage(workspaceId)).toMatchObject({ used: 3, remaining: 0, resetsAt: '2026-03-08T05:00:00.000Z' });
  });

  it('is DST-safe: the 23-hour day of the spring change ends at its real midnight', async () => {
    // 2026-03-08 is 23 hours long in New York; 08:00 EDT (12:00Z) is 16 hours before midnight, not 17.
    const { workspaceId, quota } = setup({ tier: 'starter', timezone: 'America/New_York' }, 'starter:1', '2026-03-08T12:00:00Z');
    await quota.consume(workspaceId, 1);
    const err = await rejection(quota.consume(workspaceId, 1));
    expect(err.retryAfter).toBe(16 * 3600);
    expect((await quota.usage(workspaceId)).resetsAt).toBe('2026-03-09T04:00:00.000Z');
  });

  it('counts each workspace in its own zone: at the same instant one has a new day and the other not', async () => {
    const at = '2026-03-06T23:30:00Z'; // 00:30 on March 7 in Berlin (UTC+1), 15:30 on March 6 in Los Angeles (UTC-8)
    const berlin = setup({ tier: 'starter', timezone: 'Europe/Berlin' }, 'starter:1', '2026-03-06T22:00:00Z');
    const la = setup({ tier: 'starter', timezone: 'America/Los_Angeles' }, 'starter:1', '2026-03-06T22:00:00Z');
    await berlin.quota.consume(berlin.workspaceId, 1);
    await la.quota.consume(la.workspaceId, 1);
    berlin.now.value = new Date(at);
    la.now.value = new Date(at);
    await berlin.quota.consume(berlin.workspaceId, 1);
    expect((await rejection(la.quota.consume(la.workspaceId, 1))).retryAfter).toBe(8.5 * 3600);
  });

  it('purges claims of days that are over everywhere, in the background of a consume', async () => {
    const own = new MongoQuotaClaims(connections[2]!);
    await syncIndexes(connections[2]!);
    const { workspaceId, now, quota } = setup({ tier: 'starter', timezone: 'UTC' }, 'starter:5', '2026-04-01T12:00:00Z', own);
    await quota.consume(workspaceId, 4);
    now.value = new Date('2026-04-02T12:00:00Z');
    await quota.consume(workspaceId, 1);
    now.value = new Date('2026-04-05T11:00:00Z'); // more than 3 days after the first claims, less after the second
    await quota.consume(workspaceId, 1);
    await expect.poll(() => own.countClaims(workspaceId, '2026-04-01'), { timeout: 10_000 }).toBe(0);
    expect(await own.countClaims(workspaceId, '2026-04-02')).toBe(1);
    expect(await own.countClaims(workspaceId, '2026-04-05')).toBe(1);
  });
});

describe('daily limits per plan', () => {
  it('defaults to the plan limits and takes an operator override per tier', () => {
    expect(parseDailyLimits('')).toEqual({ free: 0, starter: 100, pro: 500, team: 2000 });
    expect(parseDailyLimits(' starter:3 , pro:5')).toEqual({ free: 0, starter: 3, pro: 5, team: 2000 });
  });

  it.each(['gold:5', 'starter', 'starter:', 'starter:-1', 'starter:2.5', 'starter:1:2', 'pro:x'])('rejects %s naming the entry', (entry) => {
    expect(() => parseDailyLimits(entry)).toThrow(entry);
  });

  it('rejects a non-positive or fractional unit count', async () => {
    const { workspaceId, quota } = setup({ tier: 'starter' as Tier, timezone: 'UTC' }, '', '2026-03-06T10:00:00Z');
    await expect(quota.consume(workspaceId, 0)).rejects.toThrow(RangeError);
    await expect(quota.refund(workspaceId, 1.5)).rejects.toThrow(RangeError);
  });
});
