import { dayShares } from './dates.js';
import { METRIC_NAMES, ZERO, type Metrics } from './model.js';

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
 * counts: each day gets whole numbers and the days add up to the growth exactly.
 */
export function attributeGrowth(growth: Metrics, from: Date, to: Date, zone: string): Map<string, Metrics> {
  const shares = dayShares(from, to, zone);
  const perMetric = Object.fromEntries(
    METRIC_NAMES.map((name) => [
      name,
      split(
        growth[name],
        shares.map((s) => s.share),
      ),
    ]),
  ) as Record<keyof Metrics, number[]>;
  const out = new Map<string, Metrics>();
  shares.forEach((s, i) => {
    const m: Metrics = { ...ZERO };
    for (const name of METRIC_NAMES) m[name] = perMetric[name][i]!;
    out.set(s.day, m);
  });
  return out;
}
