import { dayShares } from './dates.js';

/** Splits an integer into parts proportional to `shares` (summing to 1) that add up to it exactly (largest remainder). */
function split(value: number, shares: number[]): number[] {
  const sign = value < 0 ? -1 : 1;
  const raw = shares.map((s) => Math.abs(value) * s);
  const parts = raw.map(Math.floor);
  let left = Math.abs(value) - parts.reduce((a, b) => a + b, 0);
  const order = raw.map((r, i) => ({ i, frac: r - Math.floor(r) })).sort((a, b) => b.frac - a.frac || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    parts[i]! += 1;
    left -= 1;
  }
  return parts.map((p) => p * sign);
}

/**
 * Attributes the growth between two snapshots (or between posting and the first snapshot) to the
 * local days it happened on, in proportion to the time each day holds of the span, so a post's
 * counts are never counted twice and a week between fetches is spread over the week. Integer
 * counts: each day gets whole numbers and the days add up to the growth exactly. A count the
 * platform does not report (null) is null on every day. Any record of counts can be attributed.
 */
export function attributeGrowth<K extends string>(growth: Record<K, number | null>, from: Date, to: Date, zone: string): Map<string, Record<K, number | null>> {
  const days = dayShares(from, to, zone);
  const shares = days.map((d) => d.share);
  const names = Object.keys(growth) as K[];
  const perName = new Map(names.map((name) => [name, growth[name] === null ? null : split(growth[name], shares)]));
  const out = new Map<string, Record<K, number | null>>();
  days.forEach((d, i) => out.set(d.day, Object.fromEntries(names.map((name) => [name, perName.get(name)?.[i] ?? null])) as Record<K, number | null>));
  return out;
}
