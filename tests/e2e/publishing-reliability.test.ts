import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace, freshClientAddress, request, startStack, type RunningProcess, type Stack, type TestWorkspace } from '@spa/testing';

/**
 * Scaled to this 2-core machine and its FerretDB: 60 posts with 3 targets each (the 1,000 is
 * for a production-size store); the properties are the same.
 */
const POSTS = 60;
const PLATFORMS = ['twitter', 'mastodon', 'bluesky'] as const;

let stack: Stack;
let ws: TestWorkspace;
beforeAll(async () => {
  stack = await startStack({ publishing: true });
  ws = await createWorkspace(stack);
}, 90_000);
afterAll(async () => {
  await stack?.stop();
});

const call = (path: string, opts: Parameters<Stack['api']>[1] = {}) => stack.api(path, { token: ws.apiKey, localAddress: freshClientAddress(), ...opts });

describe('publishing survives crashes and replicas', () => {
  it(`publishes ${POSTS} posts × 3 targets exactly once with two schedulers and publishers killed again and again`, async () => {
    await stack.startPosts();
    const extra: RunningProcess[] = [await stack.startPublisher()];
    const accounts = await Promise.all(
      PLATFORMS.map(async (platform) => (await stack.accounts.connectSocialAccount({ workspaceId: ws.workspaceId, platform, username: `rel_${platform}`, sandbox: true })).socialAccountId),
    );
    const at = new Date(Date.now() + 3_000).toISOString();
    const created = await call('/posts/bulk', {
      body: { posts: Array.from({ length: POSTS }, (_, i) => ({ body: `reliable ${i}`, scheduled_at: at, post_accounts: accounts.map((id) => ({ social_account_id: id })) })) },
    });
    expect(created.status, created.text).toBe(201);
    const ids: number[] = created.json.posts.map((p: { id: number }) => p.id);

    // Kill publishers with SIGKILL while jobs are in flight, and bring them back.
    const deadline = Date.now() + 120_000;
    let kills = 0;
    const terminal = async () => (await call('/posts?status=posted,failed,partial&limit=200')).json.meta.total_count as number;
    while ((await terminal()) < POSTS && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 1_500));
      const victim = extra.pop() ?? stack.processes.find((p) => p.name === 'publisher' && p.child.exitCode === null && p.child.signalCode === null);
      if (victim && kills < 4) {
        await victim.stop('SIGKILL');
        kills += 1;
        extra.push(await stack.startPublisher());
      }
    }
    expect(kills).toBeGreaterThan(0);
    expect(await terminal()).toBe(POSTS);

    const posts = (await call('/posts?status=posted,failed,partial&limit=200')).json.posts as Array<{ id: number; status: string; body: string; post_accounts: Array<{ platform_status: string }> }>;
    expect(posts.map((p) => p.id).sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
    expect(posts.every((p) => p.status === 'posted' && p.post_accounts.every((t) => t.platform_status === 'posted'))).toBe(true);
    for (const platform of PLATFORMS) {
      const remote = (await request(stack.sandboxUrl!, `/_sandbox/posts?platform=${platform}`)).json.posts as Array<{ text: string }>;
      const texts = remote.map((p) => p.text).filter((t) => t.startsWith('reliable '));
      expect(texts.length, `${platform}: every target once`).toBe(POSTS);
      expect(new Set(texts).size, `${platform}: none twice`).toBe(POSTS);
    }
  }, 180_000);
});
