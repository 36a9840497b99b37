import type { PostMetric } from './model.js';
import type { PostsStore } from './ports.js';

export interface MetricSnapshot {
  workspaceId: number;
  postId: number;
  postAccountId: number;
  metric: PostMetric;
}

/**
 * Keeps the latest metric snapshot on its target (post_metric). Monotonic by fetched_at: an older or
 * repeated snapshot changes nothing, so events may arrive twice or out of order. A post edited
 * meanwhile is read again. Answers what happened.
 */
export async function recordMetric(store: Pick<PostsStore, 'get' | 'recordMetric'>, s: MetricSnapshot): Promise<'recorded' | 'stale' | 'unknown'> {
  for (let tries = 0; tries < 5; tries += 1) {
    const post = await store.get(s.workspaceId, s.postId);
    const target = post?.postAccounts.find((a) => a.id === s.postAccountId);
    if (!post || !target) return 'unknown';
    if (target.postMetric && target.postMetric.fetchedAt.getTime() >= s.metric.fetchedAt.getTime()) return 'stale';
    if (await store.recordMetric(post, s.postAccountId, s.metric)) return 'recorded';
  }
  throw new Error(`post ${s.postId} kept changing while its metric was recorded`);
}
