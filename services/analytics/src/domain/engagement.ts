import type { Metrics } from './model.js';

/** Likes, replies, reposts and clicks: every interaction counted as engagement. */
export const engagements = (m: Metrics): number => m.likes + m.replies + m.reposts + m.clicks;

/** (likes + replies + reposts + clicks) / impressions; null when impressions are 0 or unknown. */
export function engagementRate(m: Metrics): number | null {
  if (!Number.isFinite(m.impressions) || m.impressions <= 0) return null;
  return engagements(m) / m.impressions;
}

export const addMetrics = (a: Metrics, b: Metrics): Metrics => ({
  impressions: a.impressions + b.impressions,
  likes: a.likes + b.likes,
  replies: a.replies + b.replies,
  reposts: a.reposts + b.reposts,
  clicks: a.clicks + b.clicks,
});

export const subtractMetrics = (a: Metrics, b: Metrics): Metrics => ({
  impressions: a.impressions - b.impressions,
  likes: a.likes - b.likes,
  replies: a.replies - b.replies,
  reposts: a.reposts - b.reposts,
  clicks: a.clicks - b.clicks,
});
