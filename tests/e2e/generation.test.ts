import { CAPABILITIES, countCharacters, utf8ByteLength } from '@spa/platforms';
import { createWorkspace, freshClientAddress, type HttpOptions, type Stack, type TestWorkspace } from '@spa/testing';
import { PLATFORMS, type Platform } from '@spa/vocabulary';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jaccard, shingles } from '../../services/generation/src/domain/writing/near-duplicates.js';
import { expectError } from '../support/expect-error.js';
import { sharedStack } from '../support/shared-stack.js';

// The local stack: no AI provider configured, so the built-in composer writes everything.
let stack: Stack;
beforeAll(async () => {
  stack = await sharedStack();
});
afterAll(async () => {
  await stack?.stop();
});

const as =
  (ws: TestWorkspace) =>
  (path: string, opts: HttpOptions = {}) =>
    stack.api(path, { token: ws.apiKey, method: 'POST', localAddress: freshClientAddress(), ...opts });

/** Within the platform's character limit counted its way, and its byte cap. */
function expectWithinLimit(platform: Platform, text: string): void {
  expect(text.trim().length).toBeGreaterThan(0);
  expect(countCharacters(platform, text), `${platform}: ${text}`).toBeLessThanOrEqual(CAPABILITIES[platform].character_limit);
  const bytes = CAPABILITIES[platform].byte_limit;
  if (bytes !== undefined) expect(utf8ByteLength(text)).toBeLessThanOrEqual(bytes);
}

describe('POST /posts/generate (built-in composer)', () => {
  it('writes a post within the limit on every one of the 15 platforms', async () => {
    // The generate bucket allows 10 a minute per token: two workspaces share the 15 calls.
    const [a, b] = await Promise.all([createWorkspace(stack), createWorkspace(stack)]);
    for (const [i, platform] of PLATFORMS.entries()) {
      const res = await as(i < 8 ? a : b)('/posts/generate', { body: { topic: 'Onboarding new customers in the first week', platform, angle: 'what to automate' } });
      expect(res.status, res.text).toBe(200);
      expect(Object.keys(res.json).sort()).toEqual(['body', 'model_degraded']);
      expect(res.json.model_degraded).toBe(false);
      expectWithinLimit(platform, res.json.body);
    }
  });

  it('rejects bad input naming every bad field, and needs ai:generate and a paid live plan', async () => {
    const ws = await createWorkspace(stack);
    const bad = await as(ws)('/posts/generate', { body: { topic: '', platform: 'myspace', angle: 'a'.repeat(201) } });
    expectError(bad, 422, 'INVALID_PARAMETERS');
    expect(bad.json.error.details.join(' ')).toMatch(/topic/);
    expect(bad.json.error.details.join(' ')).toMatch(/platform/);
    expect(bad.json.error.details.join(' ')).toMatch(/angle/);

    const noScope = await createWorkspace(stack, { scopes: ['posts:read'] });
    expectError(await as(noScope)('/posts/generate', { body: { topic: 'x', platform: 'twitter' } }), 403, 'INSUFFICIENT_SCOPE');
    const lapsed = await createWorkspace(stack, { status: 'past_due' });
    expectError(await as(lapsed)('/posts/generate', { body: { topic: 'x', platform: 'twitter' } }), 403, 'NO_ACTIVE_SUBSCRIPTION');
  });

  it('applies active custom rules created through accounts, and ignores inactive ones', async () => {
    const ws = await createWorkspace(stack);
    await stack.accounts.createCustomRule({ workspaceId: ws.workspaceId, title: 'Brand', content: 'Never use "synergy". Always end with "#acmeteam"', active: true });
    await stack.accounts.createCustomRule({ workspaceId: ws.workspaceId, title: 'Off', content: 'Always include "PINEAPPLE"', active: false });
    await stack.accounts.createCustomRule({ workspaceId: ws.workspaceId, title: 'Threads only', content: 'Always include "THREADWORD"', active: true, scope: 'thread' });
    for (const platform of ['twitter', 'linkedin', 'bluesky'] as const) {
      const res = await as(ws)('/posts/generate', { body: { topic: 'Synergy between sales and product', platform } });
      expect(res.status, res.text).toBe(200);
      const body: string = res.json.body;
      expect(body.toLowerCase()).not.toContain('synergy');
      expect(body.trimEnd().endsWith('#acmeteam')).toBe(true);
      expect(body).not.toContain('PINEAPPLE');
      expect(body).not.toContain('THREADWORD');
      expectWithinLimit(platform, body);
    }
    const thread = await as(ws)('/posts/generate_thread', { body: { topic: 'sales and product', tweet_count: 3, platform: 'twitter' } });
    expect(thread.status, thread.text).toBe(200);
    expect(thread.json.tweets.join('\n')).toContain('THREADWORD');
    expect(thread.json.tweets.at(-1).trimEnd().endsWith('#acmeteam')).toBe(true);
  });

  it('answers GENERATION_FAILED when the rules cannot all be kept, and gives the quota unit back', async () => {
    const ws = await createWorkspace(stack);
    await stack.accounts.createCustomRule({ workspaceId: ws.workspaceId, title: 'Contradiction', content: 'Always include "#launch". Never use "#launch"', active: true });
    const usedBefore = await usedToday(ws);
    const res = await as(ws)('/posts/generate', { body: { topic: 'our launch', platform: 'twitter' } });
    expectError(res, 422, 'GENERATION_FAILED');
    expect(await usedToday(ws)).toBe(usedBefore);
  });
});

/** Today's count from the billing summary (the quota part), or from the quota counting 1 per success. */
async function usedToday(ws: TestWorkspace): Promise<number> {
  const res = await stack.api('/billing/subscriptions/current', { token: ws.apiKey, localAddress: freshClientAddress() });
  expect(res.status, res.text).toBe(200);
  return res.json.quota.replies_used_today;
}

describe('POST /posts/generate_from_idea and /posts/generate_batch', () => {
  it('gives three distinct drafts from an idea, the first being body', async () => {
    const ws = await createWorkspace(stack);
    const res = await as(ws)('/posts/generate_from_idea', { body: { idea: 'How we halved our support backlog', platform: 'linkedin' } });
    expect(res.status, res.text).toBe(200);
    expect(res.json.drafts).toHaveLength(3);
    expect(res.json.body).toBe(res.json.drafts[0].body);
    expect(res.json.model_degraded).toBe(false);
    expect(new Set(res.json.drafts.map((d: { body: string }) => d.body)).size).toBe(3);
    for (const d of res.json.drafts) expectWithinLimit('linkedin', d.body);
  });

  it('writes exactly count posts, no two near-duplicates of each other or of the last posts, and counts count units', async () => {
    const ws = await createWorkspace(stack);
    const existing = 'Short feedback loops make mistakes with developer productivity surface early, while they are cheap.';
    expect((await as(ws)('/posts', { body: { post: { body: existing } } })).status).toBe(201);
    for (const [platform, count] of [
      ['twitter', 20],
      ['linkedin', 7],
      ['mastodon', 1],
    ] as const) {
      const before = await usedToday(ws);
      const res = await as(ws)('/posts/generate_batch', { body: { category: 'developer productivity', count, platform } });
      expect(res.status, res.text).toBe(200);
      expect(res.json.posts).toHaveLength(count);
      expect(res.json.degraded_count).toBe(0);
      const all = [existing, ...res.json.posts];
      for (let i = 0; i < all.length; i++) {
        for (let j = i + 1; j < all.length; j++) expect(jaccard(shingles(all[i]!), shingles(all[j]!)), `${all[i]}\n---\n${all[j]}`).toBeLessThan(0.6);
      }
      for (const post of res.json.posts) expectWithinLimit(platform, post);
      expect(await usedToday(ws)).toBe(before + count);
    }
  });

  it('rejects count outside 1..20', async () => {
    const ws = await createWorkspace(stack);
    for (const count of [0, 21, 2.5]) {
      const res = await as(ws)('/posts/generate_batch', { body: { category: 'x', count, platform: 'twitter' } });
      expectError(res, 422, 'INVALID_PARAMETERS');
      expect(res.json.error.details.join(' ')).toMatch(/count/);
    }
  });
});

describe('POST /posts/generate_thread', () => {
  it('writes exactly 2 and exactly 25 parts, each within the platform limit', async () => {
    const ws = await createWorkspace(stack);
    for (const [platform, count] of [
      ['twitter', 2],
      ['twitter', 25],
      ['bluesky', 25],
      ['mastodon', 7],
      ['threads', 4],
    ] as const) {
      const res = await as(ws)('/posts/generate_thread', { body: { topic: 'Lessons from running a small design studio', tweet_count: count, platform } });
      expect(res.status, res.text).toBe(200);
      expect(res.json.tweets).toHaveLength(count);
      for (const tweet of res.json.tweets) expectWithinLimit(platform, tweet);
    }
  });

  it('rejects tweet_count outside 2..25 and platforms without threads', async () => {
    const ws = await createWorkspace(stack);
    for (const tweet_count of [1, 26]) {
      const res = await as(ws)('/posts/generate_thread', { body: { topic: 'x', tweet_count, platform: 'twitter' } });
      expectError(res, 422, 'INVALID_PARAMETERS');
      expect(res.json.error.details.join(' ')).toMatch(/tweet_count/);
    }
    const res = await as(ws)('/posts/generate_thread', { body: { topic: 'x', tweet_count: 3, platform: 'linkedin' } });
    expectError(res, 422, 'INVALID_PARAMETERS');
    expect(res.json.error.message).toMatch(/linkedin does not publish threads/);
  });
});

describe('POST /posts/generate_carousel', () => {
  it('needs a connected LinkedIn account', async () => {
    const ws = await createWorkspace(stack);
    expectError(await as(ws)('/posts/generate_carousel', { body: { topic: 'Pricing' } }), 422, 'INVALID_STATE');
    const { socialAccountId: x } = await stack.accounts.connectSocialAccount({ workspaceId: ws.workspaceId, platform: 'twitter', username: 'x-user', sandbox: true });
    const notLinkedIn = await as(ws)('/posts/generate_carousel', { body: { topic: 'Pricing', social_account_id: x } });
    expectError(notLinkedIn, 422, 'INVALID_PARAMETERS');
    expect(notLinkedIn.json.error.message).toMatch(/social_account_id/);
    expect(await usedToday(ws)).toBe(0);
  });

  it('returns slides and a stored PDF with one square page per slide', async () => {
    const ws = await createWorkspace(stack);
    const { socialAccountId } = await stack.accounts.connectSocialAccount({ workspaceId: ws.workspaceId, platform: 'linkedin', username: 'li-user', sandbox: true });
    for (const slide_count of [undefined, 3, 10]) {
      const res = await as(ws)('/posts/generate_carousel', { body: { topic: 'Pricing your first SaaS product', ...(slide_count ? { slide_count } : {}) } });
      expect(res.status, res.text).toBe(200);
      const expected = slide_count ?? 6;
      expect(res.json.slides).toHaveLength(expected);
      expect(res.json.social_account_id).toBe(socialAccountId);
      expect(res.json.document).toMatchObject({ page_count: expected, content_type: 'application/pdf' });
      expectWithinLimit('linkedin', res.json.caption);
      const pdf = Buffer.from(await (await fetch(res.json.document.url)).arrayBuffer());
      expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(pdf.length).toBe(res.json.document.size_bytes);
      const text = pdf.toString('latin1');
      expect(text.match(/\/Type \/Page\b(?!s)/g)).toHaveLength(expected);
      expect(text).toMatch(/\/MediaBox \[0 0 1080 1080\]/);
    }
    const bad = await as(ws)('/posts/generate_carousel', { body: { topic: 'x', slide_count: 11 } });
    expectError(bad, 422, 'INVALID_PARAMETERS');
  });
});

describe('GET /voice_profile', () => {
  it('is neutral without posts and learns from approved posts', async () => {
    const ws = await createWorkspace(stack, { reviewRequired: true });
    const call = as(ws);
    const empty = await call('/voice_profile', { method: 'GET' });
    expect(empty.status, empty.text).toBe(200);
    expect(empty.json.voice_profile).toMatchObject({ sample_size: 0, top_hashtags: [], frequent_phrases: [] });
    const bodies = [
      'Shipping beats planning! Build in public, every single day. #buildinpublic #saas',
      'Day 12: build in public update. Revenue is up, churn is down! #buildinpublic',
      'What would you build in public next? #buildinpublic',
    ];
    for (const body of bodies) {
      const created = await call('/posts', { body: { post: { body } } });
      expect(created.status, created.text).toBe(201);
      expect((await call(`/posts/${created.json.post.id}/approve`)).status).toBe(200);
    }
    // Not approved: stays out of the profile.
    await call('/posts', { body: { post: { body: 'A pending post that must not count #pending' } } });
    const learned = await call('/voice_profile?refresh=true', { method: 'GET' });
    expect(learned.status, learned.text).toBe(200);
    const v = learned.json.voice_profile;
    expect(v.sample_size).toBe(3);
    expect(v.top_hashtags[0]).toBe('#buildinpublic');
    expect(v.top_hashtags).not.toContain('#pending');
    expect(v.frequent_phrases).toContain('build in public');
    expect(v.hashtags_per_post).toBeCloseTo(4 / 3, 2);
    expect(v.exclamation_ratio).toBeCloseTo(2 / 3, 2);
  });
});
