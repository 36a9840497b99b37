import type { Post } from '@spa/contracts/posts/v1/posts';

/** A post's best engagement rate over its targets' latest metric snapshots; undefined before any. */
export function bestEngagementRate(p: Post): number | undefined {
  const rates = p.postAccounts.map((a) => a.postMetric?.engagementRate).filter((r): r is number => typeof r === 'number');
  return rates.length ? Math.max(...rates) : undefined;
}

/**
 * `use_post_metrics_for_ai`: the best-performing posts first (highest engagement rate), then posts not
 * measured yet; the order among equals stays as given (newest first).
 */
export function rankByEngagement(posts: Post[]): Post[] {
  return posts
    .map((p, i) => ({ p, i, rate: bestEngagementRate(p) }))
    .sort((a, b) => (b.rate ?? -1) - (a.rate ?? -1) || a.i - b.i)
    .map((x) => x.p);
}
