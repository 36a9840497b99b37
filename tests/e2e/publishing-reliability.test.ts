import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace, freshClientAddress, request, startStack, type RunningProcess, type Stack, type TestWorkspace } from '@spa/testing';

/**
 * RELIABILITY_POSTS posts with 3 targets each: 1,000 in scripts/test, fewer for a
 * quick local run.
 */
const POSTS = Number(process.env.RELIABILITY_POSTS ?? 1_000);
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
  it(
    `publishes ${POSTS} posts × 3 targets exactly once with two schedulers and publishers killed again and again`,
    async () => {
      await stack.startPosts();
      const extra: RunningProcess[] = [await stack.startPublisher()];
      const accounts = await Promise.all(
        PLATFORMS.map(async (platform) => (await stack.accounts.connectSocialAccount({ workspaceId: ws.workspaceId, platform, username: `rel_${platform}`, sandbox: true })).socialAccountId),
      );
      const at = new Date(Date.now() + 5_000 + POSTS * 40).toISOString();
      const ids: number[] = [];
      for (let start = 0; start < POSTS; start += 100) {
        const posts = Array.from({ length: Math.min(100, POSTS - start) }, (_, i) => ({
          body: `reliable ${start + i}`,
          scheduled_at: at,
          post_accounts: accounts.map((id) => ({ social_account_id: id })),
        }));
        const created = await call('/posts/bulk', { body: { posts } });
        expect(created.status, created.text).toBe(201);
        ids.push(...created.json.posts.map((p: { id: number }) => p.id));
      }

      // Kill publishers with SIGKILL while jobs are in flight, and bring them back.
      const deadline = Date.now() + 60_000 + POSTS * 500;
      let kills = 0;
      // Under this load a list can outlast the gateway's 5 s deadline (503): then ask again.
      let lastCount = 0;
      const terminal = async () => {
        const res = await call('/posts?status=posted,failed,partial&limit=1');
        if (res.status === 200) lastCount = res.json.meta.total_count as number;
        else expect(res.status, res.text).toBe(503);
        return lastCount;
      };
      while ((await terminal()) < POSTS && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 3_000));
        const victim = extra.pop() ?? stack.processes.find((p) => p.name === 'publisher' && p.child.exitCode === null && p.child.signalCode === null);
        if (victim && kills < 6 && Date.parse(at) < Date.now()) {
          await victim.stop('SIGKILL');
          kills += 1;
          extra.push(await stack.startPublisher());
        }
      }
      expect(kills).toBeGreaterThan(0);
      expect(await terminal()).toBe(POSTS);

      const posts: Array<{ id: number; status: string; post_accounts: Array<{ platform_status: string }> }> = [];
      for (let offset = 0; offset < POSTS; offset += 200) {
        // A page of this large workspace can miss the gateway's deadline on a loaded machine (503, retry later,
        // as any client would); every page must still come back whole.
        let page = await call(`/posts?status=posted,failed,partial&limit=200&offset=${offset}&sort=id&sort_direction=asc`);
        for (let tries = 1; page.status === 503 && tries < 10; tries += 1) {
          await new Promise((resolve) => setTimeout(resolve, 1_000));
          page = await call(`/posts?status=posted,failed,partial&limit=200&offset=${offset}&sort=id&sort_direction=asc`);
        }
        expect(page.status, page.text).toBe(200);
        posts.push(...page.json.posts);
      }
      expect(posts.map((p) => p.id).sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
      expect(posts.every((p) => p.status === 'posted' && p.post_accounts.every((t) => t.platform_status === 'posted'))).toBe(true);
      for (const platform of PLATFORMS) {
        const remote = (await request(stack.sandboxUrl!, `/_sandbox/posts?platform=${platform}`)).json.posts as Array<{ text: string }>;
        const texts = remote.map((p) => p.text).filter((t) => t.startsWith('reliable '));
        expect(texts.length, `${platform}: every target once`).toBe(POSTS);
        expect(new Set(texts).size, `${platform}: none twice`).toBe(POSTS);
      }
    },
    240_000 + POSTS * 600,
  );
});
