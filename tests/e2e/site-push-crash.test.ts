import { createWorkspace, freshClientAddress, request, startStack, type HttpOptions, type Stack, type TestWorkspace } from '@spa/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAiStandIn, type OpenAiStandIn } from '../support/openai-stand-in.js';

/**
 * SIGKILL of the real posts process while it makes a pushed article's drafts (each written by a slow
 * model, 1.5 s a post): a new replica takes the push over once the lease runs out, and in the end there
 * is exactly one post per rule, also after the site retries the push.
 */
let standIn: OpenAiStandIn;
let stack: Stack;
let ws: TestWorkspace;
const RULES = ['twitter', 'linkedin', 'mastodon', 'bluesky'] as const;

beforeAll(async () => {
  standIn = await startOpenAiStandIn({ apiKey: 'sk-stand-in', defaultDelayMs: 1_500 });
  stack = await startStack({
    generationEnv: { AI_BASE_URL: standIn.baseUrl, AI_API_KEY: 'sk-stand-in', AI_MODELS: 'slow:Slow model', AI_TIMEOUT_MS: '10000' },
    serviceEnv: { SITE_PUSH_LEASE_MS: '3000', SITE_PUSH_SWEEP_INTERVAL_MS: '500' },
  });
  ws = await createWorkspace(stack, { tier: 'pro' });
}, 300_000);
afterAll(async () => {
  await stack?.stop();
  await standIn?.close();
}, 120_000);

async function eventually<T>(read: () => Promise<T>, done: (v: T) => boolean, ms = 60_000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

describe('site push draft creation crash (SIGKILL of the real posts process)', () => {
  it('ends with exactly one post per rule after a kill mid-way, a takeover and a retried push', async () => {
    const site = await stack.accounts.createSite({ workspaceId: ws.workspaceId, name: 'Blog', url: 'https://blog.example.com', cms: 'ghost' });
    for (const platform of RULES) {
      await stack.accounts.connectSocialAccount({ workspaceId: ws.workspaceId, platform, username: `blog_${platform}`, sandbox: true });
      const r = await stack.admin(['site', 'rule', 'add', '--site', String(site.siteId), '--platform', platform]);
      expect(r.code, r.stderr).toBe(0);
    }
    let baseUrl = stack.baseUrl;
    const api = (p: string, token: string, opts: HttpOptions = {}) => request(baseUrl, `/api/v1${p}`, { token, localAddress: freshClientAddress(), ...opts });
    const blogPosts = async () => {
      const res = await api('/posts?source=blog&limit=100', ws.apiKey);
      expect(res.status, res.text).toBe(200);
      return res.json.posts as Array<{ id: number; post_accounts: Array<{ platform: string }> }>;
    };
    const article = { url: 'https://blog.example.com/posts/crash-safe', title: 'Crash-safe drafts', excerpt: 'One set of drafts, whatever happens.' };

    const pushed = await api('/site_pushes', site.token, { method: 'POST', body: article });
    expect(pushed.status, pushed.text).toBe(201);
    expect(pushed.json.site_push.matched_rules).toBe(4);

    // Kill the posts process as soon as its first draft exists: the others are still being written.
    const first = await eventually(blogPosts, (p) => p.length >= 1, 30_000, 50);
    const posts = stack.processes.find((p) => p.name === 'posts')!;
    posts.child.kill('SIGKILL');
    await new Promise((resolve) => posts.child.once('exit', resolve));
    const madeBeforeKill = first.length;
    console.log(`killed posts with ${madeBeforeKill} of ${RULES.length} posts made`);

    const replica = await stack.startPosts();
    const gateway = await stack.startGateway({ POSTS_ADDR: replica.address });
    baseUrl = `http://${gateway.address}`;
    // The next post needed another 1.5 s of writing when the process died: the kill landed mid-way.
    expect(madeBeforeKill, 'the kill landed while drafts were being made').toBeLessThan(RULES.length);

    // The replica's sweeper takes the push over once the dead worker's lease (3 s) has run out.
    const status = await eventually(
      async () => (await api('/site_pushes/status', site.token)).json,
      (s) => s.recent_pushes[0]?.consumed_at !== null,
      60_000,
      200,
    );
    expect(status.recent_pushes).toHaveLength(1);
    const done = await blogPosts();
    expect(done.map((p) => p.post_accounts[0]!.platform).sort()).toEqual([...RULES].sort());
    expect(new Set(done.map((p) => p.id)).size).toBe(RULES.length);

    // The site retries its push (its first request died with the process): no second set.
    const retried = await api('/site_pushes', site.token, { method: 'POST', body: article });
    expect(retried.status, retried.text).toBe(200);
    expect(retried.json.site_push).toMatchObject({ content_changed: false, matched_rules: 4 });
    expect(retried.json.site_push.drafts.map((d: { post_id: number }) => d.post_id).sort()).toEqual(done.map((p) => p.id).sort());
    await new Promise((r) => setTimeout(r, 1_500)); // three sweeps: none may add a post
    expect((await blogPosts()).map((p) => p.id).sort()).toEqual(done.map((p) => p.id).sort());
  });
});
