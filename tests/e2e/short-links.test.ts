import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMongo } from '@spa/mongo';
import { createWorkspace, freshClientAddress, request, TEST_INFRA, type HttpOptions, type Stack, type TestWorkspace } from '@spa/testing';
import { sharedStack } from '../support/shared-stack.js';

/**
 * Dub short links end to end, with Dub's loopback stand-in (tools/sandbox, `/dub`, which keeps links per bearer key):
 * a workspace turns link shortening on in its preferences with a Dub API key of its own (stored encrypted, never
 * answered); each URL of a post is then published as a short link of its own per target, made with that key, the first
 * pair is on the PostAccount, and the clicks Dub counts on a target's links become that target's `clicks`
 * (post_metric and rollups). The deployment has no fallback key here: with shortening off nothing changes.
 */
const WORKSPACE_KEY = 'dub_e2e_workspace_key_1234';
let stack: Stack;
let ws: TestWorkspace;
beforeAll(async () => {
  stack = await sharedStack();
  ws = await createWorkspace(stack);
  const on = await stack.api('/preferences', {
    method: 'PATCH',
    token: ws.apiKey,
    localAddress: freshClientAddress(),
    body: { preferences: { link_shortening_enabled: true, dub_api_key: WORKSPACE_KEY } },
  });
  expect(on.status, on.text).toBe(200);
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
  post_metric: { clicks: number | null; fetched_at: string } | null;
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

/** The posts the platform holds, of one account (other files post beside this one). */
const sandboxPosts = async (platform: string, account: string): Promise<Array<{ text: string }>> =>
  ((await request(stack.sandboxUrl!, `/_sandbox/posts?platform=${platform}`)).json.posts as Array<{ account: string; text: string }>).filter((p) => p.account === account);

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

    // Made with the workspace's own key: Dub (the stand-in) keeps links per key, and only that key finds them.
    const linkOf = (target: Target, key: string) => request(stack.sandboxUrl!, `/dub/links/info?externalId=ext_spa_pa_${target.id}_0`, { headers: { authorization: `Bearer ${key}` } });
    const found = await linkOf(xt, WORKSPACE_KEY);
    expect(found.status, found.text).toBe(200);
    expect(found.json).toMatchObject({ url: guide, shortLink: xt.dub_short_url });
    expect((await linkOf(xt, 'dub_some_other_workspace_key')).status).toBe(404);

    // What the platform received: the short links in place of the URLs, the rest of the text as written.
    const tweet = (await sandboxPosts('twitter', 'dub_x')).at(-1)!.text;
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

describe('Link shortening preference', () => {
  const patch = (token: string, preferences: Record<string, unknown>) => stack.api('/preferences', { method: 'PATCH', token, localAddress: freshClientAddress(), body: { preferences } });

  it('is off by default: links are published as written and both dub fields stay null', async () => {
    const other = await createWorkspace(stack);
    const prefs = await stack.api('/preferences', { token: other.apiKey, localAddress: freshClientAddress() });
    expect(prefs.json.preferences).toMatchObject({ link_shortening_enabled: false, dub_api_key_set: false });
    const { socialAccountId: x } = await stack.accounts.connectSocialAccount({ workspaceId: other.workspaceId, platform: 'twitter', username: 'dub_off_x', sandbox: true });
    const text = 'Read https://example.com/off-guide today';
    const created = await stack.api('/posts', { token: other.apiKey, localAddress: freshClientAddress(), body: { post: { body: text, post_accounts: [{ social_account_id: x }] } } });
    expect(created.status, created.text).toBe(201);
    const postId = created.json.post.id as number;
    expect((await stack.api(`/posts/${postId}/publishes`, { method: 'POST', token: other.apiKey, localAddress: freshClientAddress(), body: {} })).status).toBe(202);
    let t: Target | undefined;
    await expect
      .poll(async () => ((t = (await stack.api(`/posts/${postId}`, { token: other.apiKey, localAddress: freshClientAddress() })).json.post.post_accounts[0]), t?.platform_status), {
        timeout: 45_000,
        interval: 300,
      })
      .toBe('posted');
    expect(t).toMatchObject({ dub_short_url: null, dub_original_url: null });
    expect((await sandboxPosts('twitter', 'dub_off_x')).some((p) => p.text === text)).toBe(true);
  });

  it('never answers the key, stores it encrypted, and names bad input', async () => {
    const other = await createWorkspace(stack);
    const key = 'dub_secret_never_echoed_5678';
    const set = await patch(other.apiKey, { link_shortening_enabled: true, dub_api_key: key });
    expect(set.status, set.text).toBe(200);
    expect(set.json.preferences).toMatchObject({ link_shortening_enabled: true, dub_api_key_set: true });
    expect(set.text).not.toContain(key);
    expect(set.json.preferences).not.toHaveProperty('dub_api_key');
    const read = await stack.api('/preferences', { token: other.apiKey, localAddress: freshClientAddress() });
    expect(read.text).not.toContain(key);
    expect(read.json.preferences.dub_api_key_set).toBe(true);

    // The stored preferences hold the key sealed (AES-256-GCM), never in plain text.
    const mongo = await connectMongo(TEST_INFRA.mongoUrl, stack.addresses.databases.accounts);
    try {
      const docs = await mongo.db!.collection('preferences_revisions').find({}).toArray();
      const raw = JSON.stringify(docs);
      expect(raw).not.toContain(key);
      expect(raw).not.toContain(WORKSPACE_KEY);
      expect(raw).toMatch(/"dub_api_key_sealed":"v1\.[\w-]+\.[\w-]+\.[\w-]+"/);
    } finally {
      await mongo.close();
    }

    // A key not of Dub's shape, and shortening turned on (or the key removed) with no key at all: 422 naming the field.
    const bad = await patch(other.apiKey, { dub_api_key: 'sk_live_not_a_dub_key' });
    expect(bad.status, bad.text).toBe(422);
    expect(bad.json.error.details).toEqual([expect.stringMatching(/^preferences\.dub_api_key: must be a Dub API key/)]);
    expect(bad.text).not.toContain('sk_live_not_a_dub_key');
    const removed = await patch(other.apiKey, { dub_api_key: null });
    expect(removed.status, removed.text).toBe(422);
    expect(removed.json.error.details).toEqual([expect.stringMatching(/^preferences\.dub_api_key: cannot be removed while link_shortening_enabled is true/)]);

    const fresh = await createWorkspace(stack);
    const noKey = await patch(fresh.apiKey, { link_shortening_enabled: true, tone: 'nope' });
    expect(noKey.status, noKey.text).toBe(422);
    expect(noKey.json.error.details).toEqual(
      expect.arrayContaining([expect.stringMatching(/^preferences\.tone:/), expect.stringMatching(/^preferences\.link_shortening_enabled: needs a Dub API key/)]),
    );
    expect((await stack.api('/preferences', { token: fresh.apiKey, localAddress: freshClientAddress() })).json.preferences.link_shortening_enabled).toBe(false);

    // Off again and the key removed: accepted.
    const off = await patch(other.apiKey, { link_shortening_enabled: false, dub_api_key: null });
    expect(off.status, off.text).toBe(200);
    expect(off.json.preferences).toMatchObject({ link_shortening_enabled: false, dub_api_key_set: false });
  });
});
