import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace, freshClientAddress, request, startStack, type HttpOptions, type Stack, type TestWorkspace } from '@spa/testing';

/**
 * Dub short links end to end, with analytics given a Dub API key and Dub's loopback stand-in (tools/sandbox, `/dub`):
 * each URL of a post is published as a short link of its own per target, the first pair is on the PostAccount,
 * and the clicks Dub counts on a target's links become that target's `clicks` (post_metric and rollups).
 */
let stack: Stack;
let ws: TestWorkspace;
beforeAll(async () => {
  stack = await startStack({ publishing: true, analyticsEnv: { DUB_API_KEY: 'dub_e2e_test_key' } });
  ws = await createWorkspace(stack);
}, 240_000);
afterAll(async () => {
  await stack?.stop();
});

const call = (path: string, opts: HttpOptions = {}) => stack.api(path, { token: ws.apiKey, localAddress: freshClientAddress(), ...opts });
const connect = async (platform: string, username: string) => (await stack.accounts.connectSocialAccount({ workspaceId: ws.workspaceId, platform, username, sandbox: true })).socialAccountId;

type Target = {
  id: number;
  social_account_id: number;
  platform: string;
  platform_status: string | null;
  dub_short_url: string | null;
  dub_original_url: string | null;
  post_metric: { clicks: number; fetched_at: string } | null;
};

async function publish(body: string, accounts: number[]): Promise<number> {
  const created = await call('/posts', { body: { post: { body, post_accounts: accounts.map((id) => ({ social_account_id: id })) } } });
  expect(created.status, created.text).toBe(201);
  const res = await call(`/posts/${created.json.post.id}/publishes`, { method: 'POST', body: {} });
  expect(res.status, res.text).toBe(202);
  return created.json.post.id as number;
}

async function targetsWhen(postId: number, ready: (targets: Target[]) => boolean, timeout = 45_000): Promise<Target[]> {
  let targets: Target[] = [];
  await expect
    .poll(
      async () => {
        targets = (await call(`/posts/${postId}`)).json.post.post_accounts;
        return ready(targets);
      },
      { timeout, interval: 300 },
    )
    .toBe(true);
  return targets;
}

const sandboxPosts = async (platform: string): Promise<Array<{ text: string }>> => (await request(stack.sandboxUrl!, `/_sandbox/posts?platform=${platform}`)).json.posts;

describe('Dub short links', () => {
  it('publishes each URL as a short link of its own per target and stores the first pair on the PostAccount', async () => {
    const x = await connect('twitter', 'dub_x');
    const masto = await connect('mastodon', 'dub_masto');
    const guide = 'https://example.com/guide?ref=launch';
    const postId = await publish(`Our guide: ${guide}. Also https://example.org/notes, and the guide again ${guide}`, [x, masto]);
    const targets = await targetsWhen(postId, (ts) => ts.every((t) => t.platform_status === 'posted'));
    for (const t of targets) {
      expect(t.dub_original_url).toBe(guide);
      expect(t.dub_short_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/dub\/s\/\S+$/);
    }
    const [xt, mt] = [targets.find((t) => t.platform === 'twitter')!, targets.find((t) => t.platform === 'mastodon')!];
    expect(xt.dub_short_url).not.toBe(mt.dub_short_url); // one link per target: clicks are attributed to the platform

    // What the platform received: the short links in place of the URLs, the rest of the text as written.
    const tweet = (await sandboxPosts('twitter')).at(-1)!.text;
    expect(tweet).not.toContain('example.com');
    expect(tweet).not.toContain('example.org');
    expect(tweet.startsWith(`Our guide: ${xt.dub_short_url}. Also `)).toBe(true);
    expect(tweet.endsWith(`, and the guide again ${xt.dub_short_url}`)).toBe(true);

    // Readers click the X target's link three times: Dub counts them and they become that target's clicks.
    for (let i = 0; i < 3; i++) {
      const res = await fetch(xt.dub_short_url!, { redirect: 'manual' });
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe(guide);
    }
    const measured = await targetsWhen(postId, (ts) => ts.find((t) => t.platform === 'twitter')?.post_metric?.clicks === 3 && ts.every((t) => t.post_metric !== null));
    expect(measured.find((t) => t.platform === 'mastodon')!.post_metric!.clicks).toBe(0);

    // The series and rollups count the same clicks.
    await expect.poll(async () => (await call(`/analytics/rollups?social_account_id=${x}`)).json.total.current.clicks, { timeout: 15_000, interval: 500 }).toBe(3);
  });

  it('leaves a post without links unchanged, with both dub fields null', async () => {
    const x = await connect('twitter', 'dub_plain_x');
    const postId = await publish('No links in this one', [x]);
    const [t] = await targetsWhen(postId, (ts) => ts.every((t) => t.platform_status === 'posted'));
    expect(t).toMatchObject({ dub_short_url: null, dub_original_url: null });
  });
});
