import { connectMongo, syncIndexes, type Connection } from '@spa/mongo';
import type { PostingSchedule } from '@spa/slots';
import { dropDatabases, TEST_INFRA, uniqueName } from '@spa/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MongoLeases, MongoPostClaims, MongoQuoteLedger, MongoRunQuotaClaims } from '../data/claims.js';
import { registerModels } from '../data/models.js';
import { MongoRunStore } from '../data/mongo-store.js';
import type { RunRecord } from './model.js';
import { planRun } from './plan-run.js';
import { processItem } from './process-item.js';
import { cancelRun, regenerateItem } from './runs.js';
import type { ImageWeekDeps, QuotesPort, RunStore } from './ports.js';

/**
 * A run's jobs on the real store (FerretDB locally): planning with a worker that dies between two steps (the
 * successor plans the same items, and the daily generation quota is charged once for the run, not once per
 * attempt), and an item delivered twice at once (one worker renders it).
 */
const dbName = uniqueName('t_iw_plan');
let connection: Connection;
let models: ReturnType<typeof registerModels>;

beforeAll(async () => {
  connection = await connectMongo(TEST_INFRA.mongoUrl, dbName);
  models = registerModels(connection);
  await syncIndexes(connection);
});
afterAll(async () => {
  await connection?.close();
  await dropDatabases([dbName]);
});

class Killed extends Error {}

/** The generation service as image-week sees it: each text written consumes one unit of the day's quota. */
class CountingQuotes implements QuotesPort {
  charged = 0;
  private n = 0;
  /** Throws (the worker dies) during the call with this number (1-based), after the service charged it. */
  dieDuringCall?: number;
  private calls = 0;

  constructor(private readonly dailyLimit: number) {}

  async remaining(): Promise<number> {
    return this.dailyLimit - this.charged;
  }

  async write(_workspaceId: number, topic: string, count: number): Promise<string[]> {
    this.calls += 1;
    this.charged += count;
    const texts = Array.from({ length: count }, () => `Stay with ${topic} for ${letters(this.n++)} more days and it grows on you.`);
    if (this.calls === this.dieDuringCall) throw new Killed('worker killed while the answer was on its way');
    return texts;
  }
}

/** 0 → "a", 25 → "z", 26 → "ba"…: distinct words (quotes are compared without digits). */
function letters(n: number): string {
  let s = '';
  do {
    s = String.fromCharCode(97 + (n % 26)) + s;
    n = Math.floor(n / 26);
  } while (n > 0);
  return `w${s}`;
}

const schedule: PostingSchedule = {
  timezone: 'UTC',
  max_posts_per_day: 3,
  paused: false,
  posting_slots: [0, 1, 2, 3, 4, 5, 6].flatMap((day) => ['09:00', '13:00', '18:00'].map((time, i) => ({ id: day * 10 + i, day_of_week: day, time_of_day: time, enabled: true, source: 'user' }))),
};

let nextRun = 1;

async function setup(
  quotes: CountingQuotes,
  store: RunStore,
  { leaseMs = 60_000, readMs = 0, dryRun = true } = {},
): Promise<{ deps: ImageWeekDeps; run: RunRecord; dispatched: number[]; renders: string[] }> {
  const dispatched: number[] = [];
  const renders: string[] = [];
  const now = new Date('2026-11-16T08:00:00Z');
  const deps: ImageWeekDeps = {
    store,
    leases: new MongoLeases(models),
    postClaims: new MongoPostClaims(models),
    quota: new MongoRunQuotaClaims(models),
    quoteLedger: new MongoQuoteLedger(models),
    accounts: { plan: async () => ({ tier: 'pro', timezone: 'UTC' }), socialAccounts: async () => [], postingSchedule: async () => schedule },
    posts: { scheduledTimes: async () => [], createPost: async () => 0, findItemPost: async () => undefined },
    media: { storePng: async () => ({ url: '', r2Key: '' }) },
    quotes,
    renderer: {
      render: async (input) => {
        renders.push(input.quote);
        return { png: Buffer.from(input.quote), width: 1080, height: 1350, template: 't', watermarked: false };
      },
    },
    // A slow read (an OCR queued behind others) that gives the card's text back.
    reader: { read: async (png) => (await new Promise((r) => setTimeout(r, readMs)), { text: png.toString(), costCents: 0, reader: 'test' }) },
    jobs: { dispatch: async (job) => void dispatched.push(job.itemId) },
    clock: { now: () => now },
    settings: { templateVersion: 'v1', rendersPerWorkspace: 2, leaseMs, maxAttempts: 3 },
  };
  const run: RunRecord = {
    id: 70_000 + nextRun++,
    workspaceId: 501,
    topic: 'patience',
    platformConfig: {},
    targets: [{ platform: 'instagram', socialAccountId: 9001 }],
    cutoffDays: 14,
    scheduleMode: 'draft',
    watermarkEnabled: false,
    watermarkEveryN: 3,
    dryRun,
    templateVersion: 'v1',
    createdAt: now,
    updatedAt: now,
  };
  await store.insertRun(run);
  return { deps, run, dispatched, renders };
}

/** A store whose insertItems kills the worker (once) before the items are written. */
function dyingBeforeItems(store: MongoRunStore): RunStore & { armed: boolean } {
  const s = Object.create(store) as MongoRunStore & { armed: boolean };
  s.armed = true;
  s.insertItems = async (items) => {
    if (s.armed) {
      s.armed = false;
      throw new Killed('worker killed before storing the items');
    }
    return store.insertItems(items);
  };
  return s;
}

describe('planning a run that a crash interrupts', () => {
  it('a worker killed after the quotes were written and before the items were stored: the successor charges nothing more', async () => {
    const quotes = new CountingQuotes(100);
    const store = dyingBeforeItems(new MongoRunStore(connection, models));
    const { deps, run } = await setup(quotes, store);

    await expect(planRun(deps, run.workspaceId, run.id, 'worker-a')).rejects.toBeInstanceOf(Killed);
    const chargedByFirst = quotes.charged;
    expect(chargedByFirst).toBe(42); // 3 slots a day for 14 days

    expect(await planRun(deps, run.workspaceId, run.id, 'worker-b')).toBe(true);
    const items = await store.items([run.id]);
    expect(items).toHaveLength(42);
    expect(quotes.charged).toBe(chargedByFirst);
    expect((await store.run(run.workspaceId, run.id))?.shortfallReason).toBeUndefined();
    expect(new Set(items.map((i) => i.quote)).size).toBe(42);
  });

  it('a worker killed during a later batch: the batches already answered are reused, only the interrupted one is asked again', async () => {
    const quotes = new CountingQuotes(100);
    quotes.dieDuringCall = 3; // batches of 20, 20 and 2: killed while the third is answered
    const store = new MongoRunStore(connection, models);
    const { deps, run, dispatched } = await setup(quotes, store);

    await expect(planRun(deps, run.workspaceId, run.id, 'worker-a')).rejects.toBeInstanceOf(Killed);
    expect(quotes.charged).toBe(42);

    expect(await planRun(deps, run.workspaceId, run.id, 'worker-b')).toBe(true);
    expect(quotes.charged).toBe(44);
    const items = await store.items([run.id]);
    expect(items).toHaveLength(42);
    expect(dispatched.sort()).toEqual(items.map((i) => i.id).sort());
  });

  it('the quote count is fixed by the first attempt: the quota this run already used does not turn into a shortfall', async () => {
    const quotes = new CountingQuotes(50);
    const store = dyingBeforeItems(new MongoRunStore(connection, models));
    const { deps, run } = await setup(quotes, store);

    await expect(planRun(deps, run.workspaceId, run.id, 'worker-a')).rejects.toBeInstanceOf(Killed);
    expect(await quotes.remaining()).toBe(8);
    expect(await planRun(deps, run.workspaceId, run.id, 'worker-b')).toBe(true);
    expect(await store.items([run.id])).toHaveLength(42);
    expect((await store.run(run.workspaceId, run.id))?.shortfallReason).toBeUndefined();
    expect(quotes.charged).toBe(42);
  });

  it('a planning job delivered twice after it completed writes nothing and charges nothing', async () => {
    const quotes = new CountingQuotes(30);
    const store = new MongoRunStore(connection, models);
    const { deps, run } = await setup(quotes, store);
    expect(await planRun(deps, run.workspaceId, run.id, 'worker-a')).toBe(true);
    expect(await planRun(deps, run.workspaceId, run.id, 'worker-b')).toBe(true);
    expect(quotes.charged).toBe(30);
    expect(await store.items([run.id])).toHaveLength(30);
    expect((await store.run(run.workspaceId, run.id))?.shortfallReason).toBe('quota');
  });
});

describe('an item delivered twice at once', () => {
  it('is worked by one delivery only, even in one replica and with reads longer than the lease', async () => {
    const quotes = new CountingQuotes(100);
    const store = new MongoRunStore(connection, models);
    // A lease of 600 ms and a read of 1.5 s: only renewal while the work runs keeps the first worker's lease.
    const { deps, run, renders } = await setup(quotes, store, { leaseMs: 600, readMs: 1_500 });
    expect(await planRun(deps, run.workspaceId, run.id, 'replica-1:job-plan')).toBe(true);
    const [item] = (await store.items([run.id])).sort((a, b) => a.position - b.position);
    const job = { workspaceId: run.workspaceId, runId: run.id, itemId: item!.id };
    const first = processItem(deps, job, 'replica-1:job-a');
    await new Promise((r) => setTimeout(r, 900)); // the second delivery comes after the lease's first term
    const second = await processItem(deps, job, 'replica-1:job-b');
    expect(second).toBe('later');
    expect(await first).toBe('done');
    expect(renders).toEqual([item!.quote]);
    expect(await store.item(run.id, item!.id)).toMatchObject({ status: 'completed', imagesGenerated: 1, retryCount: 0 });
  });
});

describe('canceling a run while a worker posts one of its items', () => {
  it('answers once the post the worker had claimed is made: the answer shows every post the run will have', async () => {
    const store = new MongoRunStore(connection, models);
    const { deps, run } = await setup(new CountingQuotes(100), store, { dryRun: false });
    expect(await planRun(deps, run.workspaceId, run.id, 'replica-1:job-plan')).toBe(true);
    const [item] = (await store.items([run.id])).sort((a, b) => a.position - b.position);
    // The worker holds the item's post claim and is creating its post when the cancel comes; the post is made
    // once the cancel has found the claim taken.
    let posting!: () => void;
    const isPosting = new Promise<void>((resolve) => (posting = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    deps.posts = { ...deps.posts, createPost: async () => (posting(), await released, 4242) };
    const claims = deps.postClaims;
    deps.postClaims = { ...claims, claim: (id) => claims.claim(id), recordPost: (id, postId) => claims.recordPost(id, postId), cancel: async (id) => (await claims.cancel(id)) || (release(), false) };
    const worker = processItem(deps, { workspaceId: run.workspaceId, runId: run.id, itemId: item!.id }, 'replica-1:job-a');
    await isPosting;
    const answer = await cancelRun(deps, run.workspaceId, run.id);
    await worker;
    const posted = (await store.items([run.id])).filter((i) => i.postId !== undefined).map((i) => i.id);
    expect(posted).toEqual([item!.id]);
    expect((answer.items ?? []).filter((i) => i.postId !== undefined).map((i) => i.id)).toEqual(posted);
    expect(answer.status).toBe('canceled');
  });
});

describe('regenerating a failed item', () => {
  it('gives it a quote unlike the one it failed with, even when the generation service writes that one again', async () => {
    const quotes = new CountingQuotes(100);
    const store = new MongoRunStore(connection, models);
    const { deps, run } = await setup(quotes, store);
    expect(await planRun(deps, run.workspaceId, run.id, 'replica-1:job-plan')).toBe(true);
    const [item] = (await store.items([run.id])).sort((a, b) => a.position - b.position);
    const job = { workspaceId: run.workspaceId, runId: run.id, itemId: item!.id };
    // Cards that never read back: the item fails with its quote.
    const reader = deps.reader;
    deps.reader = { read: async () => ({ text: 'unreadable', costCents: 0, reader: 'test' }) };
    await processItem(deps, job, 'replica-1:job-a');
    const failed = (await store.item(run.id, item!.id))!;
    expect(failed.status).toBe('failed');
    await regenerateItem(deps, run.workspaceId, run.id, item!.id);
    // The first text written for the new round is the failed quote again.
    let calls = 0;
    deps.quotes = { remaining: () => quotes.remaining(), write: async (ws, topic, count) => (calls++ === 0 ? [failed.quote!] : quotes.write(ws, topic, count)) };
    deps.reader = reader;
    await processItem(deps, job, 'replica-1:job-b');
    const after = (await store.item(run.id, item!.id))!;
    expect(after.status).toBe('completed');
    expect(after.quote).toBeTruthy();
    expect(after.quote).not.toBe(failed.quote);
    expect(after.replacedQuotes).toEqual([failed.quote]);
  });
});
