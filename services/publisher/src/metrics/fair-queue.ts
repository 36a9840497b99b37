/** Something waiting for its turn: its lane is its platform and workspace. */
export interface Queued {
  id: string;
  workspaceId: number;
  platform: string;
  dueAt: Date;
}

/**
 * Waiting items in lanes by platform, then by workspace, each lane earliest due first. `take` serves the
 * platforms with something due in turn, and within a platform its workspaces in turn: a backlog of
 * thousands in one lane is served one item per round, so it never delays another platform's or another
 * workspace's items by more than a round.
 */
export class FairQueue<T extends Queued> {
  private readonly platforms = new Map<string, Map<number, T[]>>();
  private readonly ids = new Set<string>();
  /** The platform served last, and per platform the workspace served last: each round starts after them. */
  private lastPlatform: string | undefined;
  private readonly lastWorkspace = new Map<string, number>();

  get size(): number {
    return this.ids.size;
  }

  has(id: string): boolean {
    return this.ids.has(id);
  }

  /** Adds the item unless one of the same id waits already; true when added. */
  add(item: T): boolean {
    if (this.ids.has(item.id)) return false;
    this.ids.add(item.id);
    const workspaces = this.platforms.get(item.platform) ?? this.platforms.set(item.platform, new Map()).get(item.platform)!;
    const lane = workspaces.get(item.workspaceId) ?? workspaces.set(item.workspaceId, []).get(item.workspaceId)!;
    const at = item.dueAt.getTime();
    let lo = 0;
    let hi = lane.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (lane[mid]!.dueAt.getTime() <= at) lo = mid + 1;
      else hi = mid;
    }
    lane.splice(lo, 0, item);
    return true;
  }

  /** Up to `max` items due at `now`, taken out of the queue, served in turn as the class says. */
  take(max: number, now: Date): T[] {
    const out: T[] = [];
    while (out.length < max) {
      let served = false;
      for (const platform of inTurn([...this.platforms.keys()].sort(), this.lastPlatform)) {
        if (out.length >= max) break;
        const item = this.takeFrom(platform, now);
        if (!item) continue;
        out.push(item);
        this.lastPlatform = platform;
        served = true;
      }
      if (!served) break;
    }
    return out;
  }

  private takeFrom(platform: string, now: Date): T | undefined {
    const workspaces = this.platforms.get(platform)!;
    for (const workspaceId of inTurn(
      [...workspaces.keys()].sort((a, b) => a - b),
      this.lastWorkspace.get(platform),
    )) {
      const lane = workspaces.get(workspaceId)!;
      if (lane[0]!.dueAt.getTime() > now.getTime()) continue;
      const item = lane.shift()!;
      this.ids.delete(item.id);
      this.lastWorkspace.set(platform, workspaceId);
      if (!lane.length) workspaces.delete(workspaceId);
      if (!workspaces.size) this.platforms.delete(platform);
      return item;
    }
    return undefined;
  }
}

/** The keys in order, starting after `last` (from the first when `last` is not among them), round to it. */
function inTurn<K>(keys: K[], last: K | undefined): K[] {
  const start = last === undefined ? 0 : keys.indexOf(last) + 1;
  return [...keys.slice(start), ...keys.slice(0, start)];
}
