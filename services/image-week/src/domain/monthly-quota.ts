import { randomInt } from 'node:crypto';
import { AppError } from '@spa/errors';
import type { AccountsPort, RunQuotaClaims } from './ports.js';

/** Quote Week runs a workspace may start per calendar month (its time zone); dry runs are exempt. */
export const RUNS_PER_MONTH: Readonly<Record<string, number>> = { free: 0, starter: 4, pro: 12, team: 12 };
/** How often a claim reads the slots again after losing every race for the free ones. */
const MAX_ROUNDS = 25;

/** The calendar month (YYYY-MM) `now` falls in, in `zone` (UTC when the zone is unusable). */
export function localMonth(now: Date, zone: string): string {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-CA', { timeZone: zone || 'UTC', year: 'numeric', month: '2-digit' }).formatToParts(now);
  } catch {
    parts = new Intl.DateTimeFormat('en-CA', { timeZone: 'UTC', year: 'numeric', month: '2-digit' }).formatToParts(now);
  }
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '';
  return `${get('year')}-${get('month')}`;
}

/** The month's quota as it stands: runs holding a slot (dry runs never do) and the plan's limit. */
export async function runQuota(deps: { accounts: AccountsPort; quota: RunQuotaClaims }, workspaceId: number, now: Date): Promise<{ month: string; used: number; limit: number }> {
  const { tier, timezone } = await deps.accounts.plan(workspaceId);
  const month = localMonth(now, timezone);
  const limit = RUNS_PER_MONTH[tier] ?? 0;
  return { month, used: Math.min(new Set((await deps.quota.claimed(workspaceId, month)).map((c) => c.runId)).size, limit), limit };
}

/** A month slot held by a run; `taken` when this call took it (false when the run held it already). */
export interface RunSlot {
  month: string;
  slot: number;
  taken: boolean;
}

/**
 * Gives `runId` one of the month's run slots: slot n ∈ 1..limit is a uniquely keyed document, so however many
 * creates race (on any number of replicas, on a store without atomic updates) at most `limit` runs get one.
 * A run that holds a slot already (a keyed create retried after a crash, or racing a create of the same key) is
 * answered that slot. Throws 422 quota_exceeded when every slot is held by other runs.
 */
export async function claimRunSlot(deps: { accounts: AccountsPort; quota: RunQuotaClaims }, workspaceId: number, runId: number, now: Date): Promise<RunSlot> {
  const { tier, timezone } = await deps.accounts.plan(workspaceId);
  const limit = RUNS_PER_MONTH[tier] ?? 0;
  const month = localMonth(now, timezone);
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const claims = await deps.quota.claimed(workspaceId, month);
    const own = claims.find((c) => c.runId === runId);
    if (own) return { month, slot: own.slot, taken: false };
    const taken = new Set(claims.map((c) => c.slot));
    const free: number[] = [];
    for (let slot = 1; slot <= limit; slot++) if (!taken.has(slot)) free.push(slot);
    if (free.length === 0) break;
    // Random order: concurrent creates rarely try the same slot.
    for (let i = free.length - 1; i > 0; i--) {
      const j = randomInt(i + 1);
      [free[i], free[j]] = [free[j]!, free[i]!];
    }
    for (const slot of free) if (await deps.quota.claim(workspaceId, month, slot, runId)) return { month, slot, taken: true };
  }
  throw new AppError('quota_exceeded', `This workspace has used its ${limit} Quote Week runs of ${month} (${tier} plan); dry runs are not counted`, {
    details: [`monthly Quote Week run quota: ${limit} on the ${tier} plan`],
  });
}

/**
 * Leaves `runId` holding one slot of `month`, its lowest: concurrent creates of one key (one run id) may each have
 * taken a slot. Every such create calls this after its own claim, so the last of them sees every slot the id took,
 * and the lowest is never freed by any of them: the id ends with exactly that one. Frees by slot, never "any slot
 * of the run", so two callers never count one deletion twice.
 */
export async function keepOneSlot(deps: { quota: RunQuotaClaims }, workspaceId: number, month: string, runId: number): Promise<void> {
  const slots = (await deps.quota.claimed(workspaceId, month))
    .filter((c) => c.runId === runId)
    .map((c) => c.slot)
    .sort((a, b) => a - b);
  for (const slot of slots.slice(1)) await deps.quota.release(workspaceId, month, slot, runId);
}

/**
 * Makes sure `runId` holds exactly one slot of the month `now` falls in, for a keyed create that stored its run
 * (or saw it stored) after being answered a slot another create of the key took: that create may give the slot
 * back when its own insert fails. Each side checks after its own write (the storer its slots after the insert,
 * the failing create the run after its release), so at least one of them sees the other and claims again.
 * Over quota by then (every slot taken meanwhile), the stored run keeps none rather than failing a create that landed.
 */
export async function holdOneSlot(deps: { accounts: AccountsPort; quota: RunQuotaClaims }, workspaceId: number, runId: number, now: Date): Promise<void> {
  let slot: RunSlot;
  try {
    slot = await claimRunSlot(deps, workspaceId, runId, now);
  } catch (err) {
    if (err instanceof AppError && err.code === 'quota_exceeded') return;
    throw err;
  }
  if (slot.taken) await keepOneSlot(deps, workspaceId, slot.month, runId);
}
