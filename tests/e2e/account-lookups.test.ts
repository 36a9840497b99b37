import { sandboxBoardId } from '@spa/platforms';
import { createWorkspace, freshClientAddress, request, type HttpOptions, type Stack, type TestWorkspace } from '@spa/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/expect-error.js';
import { sharedStack } from '../support/shared-stack.js';

/** GET /tiktok/creator_info through the gateway → publisher → TikTok's documented creator_info query (sandbox). */
let stack: Stack;
let ws: TestWorkspace;
beforeAll(async () => {
  stack = await sharedStack();
  ws = await createWorkspace(stack);
}, 300_000);
afterAll(async () => {
  await stack?.stop();
}, 120_000);

const call = (p: string, token = ws.apiKey, opts: HttpOptions = {}) => stack.api(p, { token, localAddress: freshClientAddress(), ...opts });
const connect = async (workspaceId: number, platform: string, username: string) => (await stack.accounts.connectSocialAccount({ workspaceId, platform, username, sandbox: true })).socialAccountId;

describe('GET /tiktok/creator_info', () => {
  it("answers the contract's fields from TikTok's creator info query", async () => {
    const id = await connect(ws.workspaceId, 'tiktok', 'locked_creator');
    const res = await call(`/tiktok/creator_info?social_account_id=${id}`);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({
      nickname: 'locked_creator (sandbox)',
      username: 'locked_creator',
      avatar_url: expect.stringMatching(/^https:\/\//),
      privacy_level_options: ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY'],
      comment_disabled: true,
      duet_disabled: true,
      stitch_disabled: true,
      max_video_post_duration_sec: 15,
    });
    const asked = (await request(stack.sandboxUrl!, '/_sandbox/requests?platform=tiktok')).json.requests as Array<{ path: string; account: string }>;
    expect(asked.filter((r) => r.account === 'locked_creator').map((r) => r.path)).toEqual(['/tiktok/v2/post/publish/creator_info/query/']);
  });

  it("another workspace's TikTok account and a non-TikTok account are 404; bad ids 422; missing scope and a site token 403", async () => {
    const other = await createWorkspace(stack);
    const theirs = await connect(other.workspaceId, 'tiktok', 'their_creator');
    expectError(await call(`/tiktok/creator_info?social_account_id=${theirs}`), 404, 'NOT_FOUND');
    const mastodon = await connect(ws.workspaceId, 'mastodon', 'not_tiktok');
    expectError(await call(`/tiktok/creator_info?social_account_id=${mastodon}`), 404, 'NOT_FOUND');
    expectError(await call('/tiktok/creator_info?social_account_id=999999999'), 404, 'NOT_FOUND');
    for (const bad of ['', '0', '-3', 'abc', '99999999999999999999']) {
      const res = await call(`/tiktok/creator_info?social_account_id=${bad}`);
      expectError(res, 422, 'INVALID_PARAMETERS');
      expect(res.json.error.details.join(' ')).toContain('social_account_id');
    }
    expectError(await call('/tiktok/creator_info'), 422, 'INVALID_PARAMETERS');
    const narrow = await createWorkspace(stack, { scopes: ['posts:read'] });
    const own = await connect(narrow.workspaceId, 'tiktok', 'narrow_creator');
    expectError(await call(`/tiktok/creator_info?social_account_id=${own}`, narrow.apiKey), 403, 'INSUFFICIENT_SCOPE');
    const site = await stack.accounts.createSite({ workspaceId: ws.workspaceId, name: 'Blog', url: 'https://blog.example.com' });
    expectError(await call(`/tiktok/creator_info?social_account_id=${theirs}`, site.token), 403, 'ENDPOINT_NOT_AVAILABLE');
  });
});

describe('GET /pinterest/boards', () => {
  it("lists every board of the account from Pinterest's API", async () => {
    const id = await connect(ws.workspaceId, 'pinterest', 'board_owner');
    const res = await call(`/pinterest/boards?social_account_id=${id}`);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({
      boards: [
        { id: sandboxBoardId('board_owner', 1), name: 'Ideas', description: "board_owner's ideas", privacy: 'PUBLIC' },
        { id: sandboxBoardId('board_owner', 2), name: 'Recipes', description: null, privacy: 'PUBLIC' },
        { id: sandboxBoardId('board_owner', 3), name: 'Travel', description: null, privacy: 'SECRET' },
      ],
    });
  });

  it("another workspace's Pinterest account and a TikTok account are 404; a bad id 422", async () => {
    const other = await createWorkspace(stack);
    expectError(await call(`/pinterest/boards?social_account_id=${await connect(other.workspaceId, 'pinterest', 'their_boards')}`), 404, 'NOT_FOUND');
    expectError(await call(`/pinterest/boards?social_account_id=${await connect(ws.workspaceId, 'tiktok', 'no_boards')}`), 404, 'NOT_FOUND');
    expectError(await call('/pinterest/boards?social_account_id=1.5'), 422, 'INVALID_PARAMETERS');
  });
});

describe('GET /instagram/audio', () => {
  it("answers the documented 422 PLATFORM_UNSUPPORTED for the workspace's Instagram account, 404 for any other", async () => {
    const id = await connect(ws.workspaceId, 'instagram', 'ig_audio');
    expectError(await call(`/instagram/audio?social_account_id=${id}&q=summer`), 422, 'PLATFORM_UNSUPPORTED');
    const other = await createWorkspace(stack);
    expectError(await call(`/instagram/audio?social_account_id=${await connect(other.workspaceId, 'instagram', 'their_ig')}`), 404, 'NOT_FOUND');
    expectError(await call(`/instagram/audio?social_account_id=${await connect(ws.workspaceId, 'tiktok', 'not_ig')}`), 404, 'NOT_FOUND');
  });
});
