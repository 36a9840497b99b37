import { createHash } from 'node:crypto';

/** Parses a list of durations like `1h,6h,24h,72h,7d` (units s, m, h, d) into milliseconds, ascending. */
export function parseOffsets(list: string): number[] {
  const units: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };
  const offsets = list.split(',').map((part) => {
    const m = /^\s*(\d+)\s*([smhd])\s*$/.exec(part);
    if (!m) throw new Error(`"${part}" is not a duration like 30s, 15m, 6h or 7d`);
    return Number(m[1]) * units[m[2]!]!;
  });
  if (!offsets.length || offsets.some((o, i) => o <= 0 || (i > 0 && o <= offsets[i - 1]!))) throw new Error('offsets must be positive and ascending');
  return offsets;
}

export interface ScheduleOptions {
  offsetsMs: number[];
  /** Each fetch moves later by up to this fraction of its offset (capped by maxJitterMs), so a wave of posts does not burst. */
  jitterFraction: number;
  maxJitterMs: number;
}

/** A stable number in [0, 1) for a key: the same target always gets the same spread. */
function unit(key: string): number {
  return createHash('sha256').update(key).digest().readUInt32BE(0) / 2 ** 32;
}

/** When each fetch of a target is due: after posting by each offset, spread by a stable jitter. */
export function fetchTimes(postAccountId: number, postedAt: Date, o: ScheduleOptions): Array<{ n: number; dueAt: Date }> {
  return o.offsetsMs.map((offset, i) => {
    const jitter = Math.floor(unit(`${postAccountId}:${i + 1}`) * Math.min(offset * o.jitterFraction, o.maxJitterMs));
    return { n: i + 1, dueAt: new Date(postedAt.getTime() + offset + jitter) };
  });
}
