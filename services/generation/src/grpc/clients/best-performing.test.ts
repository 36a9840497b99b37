import type { Post } from '@spa/contracts/posts/v1/posts';
import { describe, expect, it } from 'vitest';
import { rankByEngagement } from './best-performing.js';

const post = (id: number, rates: Array<number | undefined | null>): Post =>
  ({
    id,
    postAccounts: rates.map((r, i) => ({ id: id * 10 + i, postMetric: r === null ? undefined : { impressions: 1, likes: 0, replies: 0, reposts: 0, clicks: 0, engagementRate: r, fetchedAt: '' } })),
  }) as unknown as Post;

describe('best-performing voice samples', () => {
  it('puts the highest engagement rate first and unmeasured posts last, keeping recency among equals', () => {
    const ranked = rankByEngagement([post(1, [null]), post(2, [0.01, 0.2]), post(3, [0.05]), post(4, [undefined]), post(5, [0.05])]);
    expect(ranked.map((p) => p.id)).toEqual([2, 3, 5, 1, 4]);
  });
});
