import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace, freshClientAddress, request, type HttpOptions, type Stack, type TestWorkspace } from '@spa/testing';
import { png } from '../support/media-files.js';
import { sharedStack } from '../support/shared-stack.js';

// One uploaded r2_key serves a post to several accounts: the publisher reads the bytes by key through
// the gateway's /media relay (MEDIA_BASE_URL) and uploads them as each account's native media.
let stack: Stack;
let ws: TestWorkspace;
beforeAll(async () => {
  stack = await sharedStack();
  ws = await createWorkspace(stack);
}, 90_000);
afterAll(async () => {
  await stack?.stop();
});

const call = (p: string, opts: HttpOptions = {}) => stack.api(p, { token: ws.apiKey, localAddress: freshClientAddress(), ...opts });
const connect = async (platform: string, username: string) => (await stack.accounts.connectSocialAccount({ workspaceId: ws.workspaceId, platform, username, sandbox: true })).socialAccountId;

describe('publishing uploaded media', () => {
  it('one r2_key is published to two X accounts and a Mastodon account, each with its own native media id', async () => {
    const upload = await call('/media/uploads', { body: { platform: 'twitter', content_type: 'image/png', media: (await png(120, 80)).toString('base64') } });
    expect(upload.status, upload.text).toBe(201);
    const accounts = [await connect('twitter', 'media_x1'), await connect('twitter', 'media_x2'), await connect('mastodon', 'media_m1')];
    const media = [{ r2_key: upload.json.r2_key, type: 'image' }];
    const created = await call('/posts', {
      body: {
        post: {
          body: 'with an image',
          post_contents: [
            { platform: 'twitter', body: 'with an image', metadata: { media } },
            { platform: 'mastodon', body: 'with an image', metadata: { media } },
          ],
          post_accounts: accounts.map((id) => ({ social_account_id: id })),
        },
      },
    });
    expect(created.status, created.text).toBe(201);
    expect((await call(`/posts/${created.json.post.id}/publishes`, { method: 'POST', body: {} })).status).toBe(202);
    let post: { status: string; post_accounts: Array<{ platform_status: string | null; platform_error: string | null }> } = { status: '', post_accounts: [] };
    await expect
      .poll(
        async () => {
          post = (await call(`/posts/${created.json.post.id}`)).json.post;
          return post.status;
        },
        { timeout: 30_000, interval: 250 },
      )
      .toMatch(/posted|failed|partial/);
    expect(post.status, JSON.stringify(post.post_accounts)).toBe('posted');
    const remote = async (platform: string) =>
      ((await request(stack.sandboxUrl!, `/_sandbox/posts?platform=${platform}`)).json.posts as Array<{ account: string; details: Record<string, unknown> }>).filter((p) =>
        ['media_x1', 'media_x2', 'media_m1'].includes(p.account),
      );
    const tweets = await remote('twitter');
    expect(tweets).toHaveLength(2);
    const ids = tweets.map((t) => (t.details.media as { media_ids: string[] }).media_ids);
    expect(ids.every((list) => list.length === 1)).toBe(true);
    expect(ids[0]![0]).not.toBe(ids[1]![0]);
    const toots = await remote('mastodon');
    expect(toots).toHaveLength(1);
    expect(JSON.stringify(toots[0]!.details)).toMatch(/media_ids/);
  });
});
