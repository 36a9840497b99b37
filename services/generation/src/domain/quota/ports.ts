import type { Tier } from '@spa/vocabulary';

export interface Clock {
  now(): Date;
}

/** What the quota needs to know of a workspace: its plan and the zone its days begin and end in. */
export interface WorkspacePlan {
  tier: Tier;
  /** IANA zone (the workspace preferences' timezone). */
  timezone: string;
}

export interface WorkspacePlans {
  planOf(workspaceId: number): Promise<WorkspacePlan>;
}

/**
 * One document per consumed unit and one per refunded unit of a workspace's local day, each uniquely keyed: inserting
 * it is exclusive on any MongoDB-compatible server (FerretDB 1.x included, where concurrent updates of one document
 * are not atomic), so counts built from them are exact even when many replicas consume at once.
 */
export interface QuotaClaimStore {
  /** Slot numbers of the day already claimed. */
  claimedSlots(workspaceId: number, day: string): Promise<number[]>;
  /** How many slots of the day are claimed. */
  countClaims(workspaceId: number, day: string): Promise<number>;
  /** Claims one slot for `owner` (one consume call); false when it is taken already. */
  claim(workspaceId: number, day: string, slot: number, at: Date, owner: string): Promise<boolean>;
  /** Slots of the day claimed by `owner` (an idempotency key's owner name). */
  slotsOf(workspaceId: number, day: string, owner: string): Promise<number[]>;
  /** Gives back a slot `owner` claimed (a consume that could not get all its units); false when it does not hold it. */
  release(workspaceId: number, day: string, slot: number, owner: string): Promise<boolean>;
  /** How many refunds of the day are recorded. */
  countRefunds(workspaceId: number, day: string): Promise<number>;
  /** Records refund number `n` of the day; false when that number is recorded already. */
  recordRefund(workspaceId: number, day: string, n: number, at: Date): Promise<boolean>;
  /** Deletes every claim and refund recorded before `at` (days that are over everywhere); returns how many. */
  purgeBefore(at: Date): Promise<number>;
}
