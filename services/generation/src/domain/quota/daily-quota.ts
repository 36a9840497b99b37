import { randomInt, randomUUID } from 'node:crypto';
import { AppError } from '@spa/errors';
import type { Tier } from '@spa/vocabulary';
import type { DailyLimits } from './limits.js';
import { localDay, secondsUntil, type LocalDay } from './local-day.js';
import type { Clock, QuotaClaimStore, WorkspacePlans } from './ports.js';

export interface QuotaUsage {
  tier: Tier;
  dailyLimit: number;
  /** AI generations counted today (local day of the workspace). */
  used: number;
  remaining: number;
  /** The next local midnight of the workspace, ISO 8601 UTC. */
  resetsAt: string;
}

export interface DailyQuotaDeps {
  store: QuotaClaimStore;
  plans: WorkspacePlans;
  limits: DailyLimits;
  clock: Clock;
  /** Failures of background work (the purge of old days); never thrown at a caller. */
  onBackgroundError?: (err: unknown) => void;
}

/** Claims and refunds older than this are purged: every zone's local day that old is over. */
const KEEP_CLAIMS_MS = 3 * 24 * 3_600_000;
/** At most one purge per process and period. */
const PURGE_EVERY_MS = 3_600_000;
/** How many times a consume (or refund) reads the slots again after losing the races for all of its candidates. */
const MAX_ROUNDS = 8;

function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

/**
 * The daily AI generation quota of a workspace: `limits[tier]` units per local day of the workspace (its preferences'
 * timezone), reset at its local midnight.
 *
 * Exact under concurrency on stores where concurrent updates of one document are not atomic (FerretDB 1.x), with
 * uniquely keyed inserts only:
 * - a consumed unit is the document of slot n of the day, n ∈ 1..(limit + refunds of the day). Two consumers can
 *   never insert the same slot, so claims ≤ limit + refunds, i.e. used = claims − refunds ≤ limit, however many
 *   replicas consume at once (a stale count of refunds only makes the range smaller);
 * - a refunded unit is the document of refund number n ∈ 1..claims of the day (claims are never deleted by a refund,
 *   so a refund can never take away a unit that a concurrent consume holds only for a moment).
 * A consume picks free slots in random order (so concurrent consumers rarely collide), takes all its units or none
 * (it gives back the slots it got and looks again), and answers 429 DAILY_LIMIT_EXCEEDED with `retry_after` =
 * seconds until the reset when too few are left.
 */
export class DailyQuota {
  private lastPurge = 0;

  constructor(private readonly deps: DailyQuotaDeps) {}

  /**
   * Takes `units` generations of today's quota, all or none; 429 DAILY_LIMIT_EXCEEDED when they are not left.
   *
   * With an idempotency key (a batch or job id) the claimed slots are owned by the key: a consume whose key already
   * holds its units today takes nothing more (a retried job is charged once), one that holds some takes only the
   * rest, and when two consumes of one key race, both keep the same lowest `units` slots of the key and give back
   * the surplus, so the key ends up holding exactly `units`.
   */
  async consume(workspaceId: number, units: number, idempotencyKey?: string): Promise<void> {
    if (!Number.isSafeInteger(units) || units < 1) throw new RangeError(`units must be a positive integer (got ${units})`);
    const { tier, day } = await this.today(workspaceId);
    const limit = this.deps.limits[tier];
    this.maybePurge();
    if (idempotencyKey === undefined) return this.claimUnits(workspaceId, day, tier, limit, units, randomUUID());
    const owner = `key:${idempotencyKey}`;
    const held = await this.deps.store.slotsOf(workspaceId, day.date, owner);
    if (held.length < units) await this.claimUnits(workspaceId, day, tier, limit, units - held.length, owner);
    const mine = (await this.deps.store.slotsOf(workspaceId, day.date, owner)).sort((a, b) => a - b);
    await Promise.all(mine.slice(units).map((slot) => this.deps.store.release(workspaceId, day.date, slot, owner)));
  }

  /**
   * Gives back what a keyed consume took today (its generation produced nothing), so that a retry with the same key
   * is charged again instead of getting a free generation. Claims are deleted rather than refunded: the key then
   * holds nothing.
   */
  async releaseKey(workspaceId: number, idempotencyKey: string): Promise<void> {
    const { day } = await this.today(workspaceId);
    const owner = `key:${idempotencyKey}`;
    const held = await this.deps.store.slotsOf(workspaceId, day.date, owner);
    await Promise.all(held.map((slot) => this.deps.store.release(workspaceId, day.date, slot, owner)));
  }

  private async claimUnits(workspaceId: number, day: LocalDay, tier: Tier, limit: number, units: number, owner: string): Promise<void> {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const [taken, refunded] = await Promise.all([this.deps.store.claimedSlots(workspaceId, day.date), this.deps.store.countRefunds(workspaceId, day.date)]);
      if (taken.length - refunded + units > limit) break;
      const takenSet = new Set(taken);
      const free: number[] = [];
      for (let slot = 1; slot <= limit + refunded; slot++) if (!takenSet.has(slot)) free.push(slot);
      if (free.length < units) break;
      const at = this.deps.clock.now();
      const claimed = await this.takeSome(shuffle(free), units, (slot) => this.deps.store.claim(workspaceId, day.date, slot, at, owner));
      if (claimed.length === units) return;
      // Lost the races for every candidate: give back what this call got so that it blocks nobody, then look again.
      await Promise.all(claimed.map((slot) => this.deps.store.release(workspaceId, day.date, slot, owner)));
    }
    throw this.exceeded(tier, limit, day);
  }

  /**
   * Gives back `units` generations of today (a request that produced nothing: GENERATION_FAILED, a provider error).
   * Never more than the day's claims; a consume made before the workspace's midnight and refunded after it is not
   * carried over (that day is over).
   */
  async refund(workspaceId: number, units: number): Promise<void> {
    if (!Number.isSafeInteger(units) || units < 1) throw new RangeError(`units must be a positive integer (got ${units})`);
    const { day } = await this.today(workspaceId);
    let recorded = 0;
    for (let round = 0; recorded < units && round < MAX_ROUNDS; round++) {
      const [claims, refunded] = await Promise.all([this.deps.store.countClaims(workspaceId, day.date), this.deps.store.countRefunds(workspaceId, day.date)]);
      const numbers: number[] = [];
      for (let n = refunded + 1; n <= claims; n++) numbers.push(n);
      if (numbers.length === 0) return;
      const at = this.deps.clock.now();
      recorded += (await this.takeSome(numbers, units - recorded, (n) => this.deps.store.recordRefund(workspaceId, day.date, n, at))).length;
    }
  }

  /** Today's usage of the workspace (its local day). */
  async usage(workspaceId: number): Promise<QuotaUsage> {
    const { tier, day } = await this.today(workspaceId);
    const dailyLimit = this.deps.limits[tier];
    const [claims, refunded] = await Promise.all([this.deps.store.countClaims(workspaceId, day.date), this.deps.store.countRefunds(workspaceId, day.date)]);
    const used = Math.max(0, claims - refunded);
    return { tier, dailyLimit, used, remaining: Math.max(0, dailyLimit - used), resetsAt: day.resetsAt.toISOString() };
  }

  private async today(workspaceId: number): Promise<{ tier: Tier; day: LocalDay }> {
    const plan = await this.deps.plans.planOf(workspaceId);
    return { tier: plan.tier, day: localDay(this.deps.clock.now(), plan.timezone) };
  }

  /**
   * Applies `take` (an exclusive insert) to the candidates in order, in parallel batches of what is still
   * missing, until `units` succeeded or the candidates are used up; returns the ones that succeeded.
   */
  private async takeSome(candidates: number[], units: number, take: (slot: number) => Promise<boolean>): Promise<number[]> {
    const won: number[] = [];
    let next = 0;
    while (won.length < units && next < candidates.length) {
      const batch = candidates.slice(next, next + (units - won.length));
      next += batch.length;
      const results = await Promise.all(batch.map(take));
      batch.forEach((slot, i) => results[i] && won.push(slot));
    }
    return won;
  }

  private exceeded(tier: Tier, limit: number, day: LocalDay): AppError {
    const retryAfter = secondsUntil(this.deps.clock.now(), day.resetsAt);
    return new AppError('DAILY_LIMIT_EXCEEDED', `The ${tier} plan's daily limit of ${limit} AI generations is reached; it resets at ${day.resetsAt.toISOString()} (midnight ${day.zone})`, {
      retryAfter,
    });
  }

  /** Deletes claims and refunds of days that are over in every zone, at most once an hour, in the background. */
  private maybePurge(): void {
    const now = this.deps.clock.now().getTime();
    if (now - this.lastPurge < PURGE_EVERY_MS) return;
    this.lastPurge = now;
    this.deps.store.purgeBefore(new Date(now - KEEP_CLAIMS_MS)).catch((err: unknown) => this.deps.onBackgroundError?.(err));
  }
}
