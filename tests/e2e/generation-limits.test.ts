import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace, freshClientAddress, type Stack } from '@spa/testing';
import { expectError } from '../support/expect-error.js';
import { sharedStack } from '../support/shared-stack.js';

// The per-token buckets of the generation endpoints (contract "Limits"; docs/architecture.md, "Plans"):
// generate + generate_from_idea share 10/min; batch, thread and carousel share 6/min.
let stack: Stack;
beforeAll(async () => {
  stack = await sharedStack();
});
afterAll(async () => {
  await stack?.stop();
});

const post = (token: string, path: string, body: unknown) =>
  // A fresh client address per request keeps the per-IP global limit out of the way.
  stack.api(path, { method: 'POST', token, body, localAddress: freshClientAddress() });

describe('generation rate limits per token', () => {
  it('allows 10 generate/generate_from_idea calls a minute in all, then 429 with retry_after', async () => {
    const ws = await createWorkspace(stack);
    for (let i = 0; i < 10; i++) {
      const res =
        i % 2 === 0
          ? await post(ws.apiKey, '/posts/generate', { topic: `remote work ${i}`, platform: 'linkedin', angle: 'lessons' })
          : await post(ws.apiKey, '/posts/generate_from_idea', { idea: `remote work ${i}`, platform: 'mastodon' });
      expect(res.status, res.text).toBe(200);
      expect(res.headers['ratelimit-limit']).toBe('10');
      expect(res.headers['ratelimit-remaining']).toBe(String(9 - i));
    }
    const refused = await post(ws.apiKey, '/posts/generate', { topic: 'one too many', platform: 'twitter' });
    expectError(refused, 429, 'RATE_LIMIT_EXCEEDED');
    expect(refused.json.error.retry_after).toBeGreaterThan(0);
    expect(refused.headers['retry-after']).toBe(String(refused.json.error.retry_after));
    // The bucket is per token: another workspace's key is unaffected, and so is the other bucket.
    const other = await createWorkspace(stack);
    expect((await post(other.apiKey, '/posts/generate', { topic: 'unaffected', platform: 'twitter' })).status).toBe(200);
    expect((await post(ws.apiKey, '/posts/generate_thread', { topic: 'still allowed', tweet_count: 2, platform: 'twitter' })).status).toBe(200);
  });

  it('shares 6 calls a minute between batch, thread and carousel', async () => {
    const ws = await createWorkspace(stack);
    const calls = [
      () => post(ws.apiKey, '/posts/generate_batch', { category: 'productivity', count: 2, platform: 'twitter' }),
      () => post(ws.apiKey, '/posts/generate_thread', { topic: 'productivity', tweet_count: 3, platform: 'twitter' }),
    ];
    for (let i = 0; i < 6; i++) {
      const res = await calls[i % 2]!();
      expect(res.status, res.text).toBe(200);
      expect(res.headers['ratelimit-remaining']).toBe(String(5 - i));
    }
    // The 7th, even on the third endpoint of the bucket, is refused before any work (no account check runs).
    expectError(await post(ws.apiKey, '/posts/generate_carousel', { topic: 'productivity' }), 429, 'RATE_LIMIT_EXCEEDED');
    expectError(await calls[0]!(), 429, 'RATE_LIMIT_EXCEEDED');
  });
});
