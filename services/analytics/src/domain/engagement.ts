import { INTERACTIONS, type Metrics, type RateTerms } from './model.js';

/** Likes, replies, reposts and clicks the platform reports: every interaction counted as engagement; null when it reports none. */
export function engagements(m: Metrics): number | null {
  const reported = INTERACTIONS.map((name) => m[name]).filter((v): v is number => v !== null);
  return reported.length ? reported.reduce((a, b) => a + b, 0) : null;
}

/**
 * (likes + replies + reposts + clicks, those the platform reports) / impressions; null when impressions are 0 or
 * unknown, or when the platform reports no interaction.
 */
export function engagementRate(m: Metrics): number | null {
  if (m.impressions === null || !Number.isFinite(m.impressions) || m.impressions <= 0) return null;
  const e = engagements(m);
  return e === null ? null : e / m.impressions;
}

/** A post's impressions and reported interactions; null when it reports no impressions or no interaction. */
export function rateTerms(m: Metrics): RateTerms | null {
  const e = engagements(m);
  return m.impressions === null || e === null ? null : { impressions: m.impressions, engagements: e };
}

const nullable = (f: (a: number, b: number) => number) => (a: number | null, b: number | null) => (a === null ? null : b === null ? a : f(a, b));
const minus = nullable((a, b) => a - b);

/**
 * The growth of each count from `base` to `now`: null where `now` is not reported; the whole of `now` where
 * `base` did not know it yet (the growth since posting).
 */
export const growthOf = (now: Metrics, base: Metrics): Metrics => ({
  impressions: minus(now.impressions, base.impressions),
  likes: minus(now.likes, base.likes),
  replies: minus(now.replies, base.replies),
  reposts: minus(now.reposts, base.reposts),
  clicks: minus(now.clicks, base.clicks),
});

/** `now`, keeping `before`'s value of each count `now` does not report. */
export const latestKnown = (now: Metrics, before: Metrics): Metrics => ({
  impressions: now.impressions ?? before.impressions,
  likes: now.likes ?? before.likes,
  replies: now.replies ?? before.replies,
  reposts: now.reposts ?? before.reposts,
  clicks: now.clicks ?? before.clicks,
});
