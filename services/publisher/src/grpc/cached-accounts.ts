import type { TargetAccount } from '../connectors/types.js';
import type { PublishErrorClass } from '@spa/vocabulary';
import type { AccountsPort } from '../domain/ports.js';

/**
 * The accounts port with each account's publishing credentials kept for `ttlMs`, so a burst of jobs
 * for the same accounts asks accounts (and its store) once, not once per job. An entry is dropped at
 * once when the account's credentials change: `forget` (accounts announced a reconnect, refresh or
 * disconnect; the publisher's own refresh after a 401; a disconnect it reported), and everything on
 * `forgetAll` (the announcements may have been missed). A lookup that was under way when its account
 * was forgotten answers, but is not kept. Accounts not found are never kept.
 */
/** Past this many entries, expired ones are swept on the next write. */
const SWEEP_ABOVE = 10_000;

export class CachedAccounts implements AccountsPort {
  private readonly entries = new Map<number, { workspaceId: number; account: TargetAccount; expiresAt: number }>();
  /** Bumped by every forget: a lookup started before it is not cached. */
  private generation = 0;

  constructor(
    private readonly inner: AccountsPort,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  async targets(workspaceId: number, socialAccountIds: number[]): Promise<TargetAccount[]> {
    const at = this.now();
    const cached = new Map<number, TargetAccount>();
    for (const id of socialAccountIds) {
      const e = this.entries.get(id);
      if (e && e.workspaceId === workspaceId && e.expiresAt > at) cached.set(id, e.account);
    }
    const missing = socialAccountIds.filter((id) => !cached.has(id));
    if (missing.length) {
      const generation = this.generation;
      const fetched = await this.inner.targets(workspaceId, missing);
      const keep = this.ttlMs > 0 && generation === this.generation;
      if (keep && this.entries.size > SWEEP_ABOVE) for (const [id, e] of this.entries) if (e.expiresAt <= at) this.entries.delete(id);
      for (const account of fetched) {
        cached.set(account.socialAccountId, account);
        if (keep) this.entries.set(account.socialAccountId, { workspaceId, account, expiresAt: this.now() + this.ttlMs });
      }
    }
    return socialAccountIds.flatMap((id) => cached.get(id) ?? []);
  }

  async markDisconnected(workspaceId: number, socialAccountId: number): Promise<void> {
    this.forget(socialAccountId);
    await this.inner.markDisconnected(workspaceId, socialAccountId);
  }

  async recordPublishError(workspaceId: number, socialAccountId: number, errorClass: PublishErrorClass): Promise<void> {
    await this.inner.recordPublishError?.(workspaceId, socialAccountId, errorClass);
  }

  forget(socialAccountId: number): void {
    this.generation += 1;
    this.entries.delete(socialAccountId);
  }

  forgetAll(): void {
    this.generation += 1;
    this.entries.clear();
  }
}
