import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace, freshClientAddress, type HttpOptions, type Stack, type TestWorkspace } from '@spa/testing';
import { listPostsRequest } from '@spa/contracts/codecs';
import { Platform, PostStatus } from '@spa/contracts/common/v1/vocabulary';
import { PostsServiceClient } from '@spa/contracts/posts/v1/posts';
import { createClient } from '@spa/grpc';
import { expectError } from '../support/expect-error.js';
import { sharedStack } from '../support/shared-stack.js';

let stack: Stack;
let ws: TestWorkspace;
let x: number;
let li: number;
beforeAll(async () => {
  stack = await sharedStack();
  ws = await createWorkspace(stack);
  x = (await stack.accounts.connectSocialAccount({ workspaceId: ws.workspaceId, platform: 'twitter', username: 'x-user', sandbox: true })).socialAccountId;
  li = (await stack.accounts.connectSocialAccount({ workspaceId: ws.workspaceId, platform: 'linkedin', username: 'li-user', sandbox: true })).socialAccountId;
});
afterAll(async () => {
  await stack?.stop();
});

const call = (path: string, opts: HttpOptions = {}) => stack.api(path, { token: ws.apiKey, localAddress: freshClientAddress(), ...opts });
const future = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
const count = async (status: string) => (await call(`/posts?status=${status}`)).json.meta.total_count as number;

describe('PATCH /posts/{id}', () => {
  it('changes only the given fields, replaces lists when given, and validates the result', async () => {
    const created = (await call('/posts', { body: { post: { body: 'first', scheduled_at: future(1), post_accounts: [{ social_account_id: x }] } } })).json.post;
    const res = await call(`/posts/${created.id}`, { method: 'PATCH', body: { post: { body: 'second' } } });
    expect(res.status, res.text).toBe(200);
    expect(res.json.post).toMatchObject({ id: created.id, body: 'second', status: 'scheduled', scheduled_at: created.scheduled_at, created_at: created.created_at });
    expect(res.json.post.post_accounts.map((a: { social_account_id: number }) => a.social_account_id)).toEqual([x]);

    const retarget = await call(`/posts/${created.id}`, {
      method: 'PATCH',
      body: { post: { post_accounts: [{ social_account_id: li }], post_contents: [{ platform: 'linkedin', body: 'for LinkedIn' }] } },
    });
    expect(retarget.status, retarget.text).toBe(200);
    expect(retarget.json.post.post_contents.map((c: { platform: string; body: string }) => [c.platform, c.body])).toEqual([['linkedin', 'for LinkedIn']]);

    const unschedule = await call(`/posts/${created.id}`, { method: 'PATCH', body: { post: { scheduled_at: null } } });
    expect(unschedule.json.post).toMatchObject({ status: 'draft', scheduled_at: null });

    const bad = await call(`/posts/${created.id}`, { method: 'PATCH', body: { post: { status: 'scheduled', scheduled_at: '2001-01-01T00:00:00Z' } } });
    expectError(bad, 422, 'INVALID_PARAMETERS');
    expect(bad.json.error.details).toEqual(['scheduled_at must be in the future']);
    expect((await call(`/posts/${created.id}`)).json.post.status).toBe('draft');

    const empty = await call(`/posts/${created.id}`, { method: 'PATCH', body: { post: {} } });
    expectError(empty, 422, 'INVALID_PARAMETERS');
    const sneaky = await call(`/posts/${created.id}`, { method: 'PATCH', body: { post: { status: 'posted', workspace_id: 1 } } });
    expectError(sneaky, 422, 'INVALID_PARAMETERS');
  });

  it("answers 404 for another workspace's post", async () => {
    const other = await createWorkspace(stack);
    const created = (await call('/posts', { body: { post: { body: 'mine' } } })).json.post;
    const res = await stack.api(`/posts/${created.id}`, { token: other.apiKey, method: 'PATCH', body: { post: { body: 'theirs' } }, localAddress: freshClientAddress() });
    expectError(res, 404, 'NOT_FOUND');
    expect((await call(`/posts/${created.id}`)).json.post.body).toBe('mine');
  });
});

describe('DELETE /posts/{id}', () => {
  it('deletes and answers the post as it was; a second delete is 404', async () => {
    const created = (await call('/posts', { body: { post: { body: 'to delete' } } })).json.post;
    const res = await call(`/posts/${created.id}`, { method: 'DELETE' });
    expect(res.status).toBe(200);
    expect(res.json.post).toEqual(created);
    expectError(await call(`/posts/${created.id}`), 404, 'NOT_FOUND');
    expectError(await call(`/posts/${created.id}`, { method: 'DELETE' }), 404, 'NOT_FOUND');
  });
});

describe('POST /posts/bulk', () => {
  it('creates every post, or none when any is invalid, naming each problem by item', async () => {
    const before = await count('draft,scheduled');
    const bad = await call('/posts/bulk', {
      body: {
        posts: [
          { body: 'ok one' },
          { body: 'bad account', post_accounts: [{ social_account_id: 999_999 }] },
          { body: 'ok two', scheduled_at: future(2), post_accounts: [{ social_account_id: x }] },
          { body: 'bad time', status: 'scheduled', scheduled_at: '2000-01-01T00:00:00Z', post_accounts: [{ social_account_id: x }] },
        ],
      },
    });
    expectError(bad, 422, 'INVALID_PARAMETERS');
    expect(bad.json.error.details).toEqual(['posts[1]: post_accounts[0].social_account_id 999999 is not a connected account of this workspace', 'posts[3]: scheduled_at must be in the future']);
    expect(await count('draft,scheduled')).toBe(before);

    const good = await call('/posts/bulk', {
      body: { posts: Array.from({ length: 100 }, (_, i) => ({ body: `bulk ${i}`, scheduled_at: future(1 + i / 100), post_accounts: [{ social_account_id: x }] })) },
    });
    expect(good.status, good.text).toBe(201);
    expect(good.json.posts).toHaveLength(100);
    expect(new Set(good.json.posts.map((p: { id: number }) => p.id)).size).toBe(100);
    expect(await count('draft,scheduled')).toBe(before + 100);

    const tooMany = await call('/posts/bulk', { body: { posts: Array.from({ length: 101 }, () => ({ body: 'x' })) } });
    expectError(tooMany, 422, 'INVALID_PARAMETERS');
    expect(await count('draft,scheduled')).toBe(before + 100);
  });
});

describe('POST /posts/{id}/reject', () => {
  it('returns a pending_review post to draft with the reason, and refuses other states', async () => {
    const team = await createWorkspace(stack, { tier: 'team', reviewRequired: true });
    const post = (await stack.api('/posts', { token: team.apiKey, body: { post: { body: 'review me' } }, localAddress: freshClientAddress() })).json.post;
    const reject = (body: unknown) => stack.api(`/posts/${post.id}/reject`, { token: team.apiKey, body, localAddress: freshClientAddress() });
    expectError(await reject({}), 422, 'INVALID_PARAMETERS');
    expectError(await reject({ rejection_reason: '   ' }), 422, 'INVALID_PARAMETERS');
    const res = await reject({ rejection_reason: 'Off brand' });
    expect(res.status, res.text).toBe(200);
    expect(res.json.post).toMatchObject({ status: 'draft', review_action: 'rejected', rejection_reason: 'Off brand' });
    expect(res.json.post.reviewed_at).not.toBeNull();
    expectError(await reject({ rejection_reason: 'again' }), 422, 'INVALID_STATE');
    const starter = await createWorkspace(stack, { tier: 'starter' });
    expectError(await stack.api('/posts/1/reject', { token: starter.apiKey, body: { rejection_reason: 'x' }, localAddress: freshClientAddress() }), 403, 'TIER_UPGRADE_REQUIRED');
  });
});

describe('Idempotency-Key', () => {
  it('replays the first answer for the same key and body, and refuses the key for another body', async () => {
    const before = await count('draft');
    const body = { post: { body: 'exactly once' } };
    const first = await call('/posts', { body, headers: { 'idempotency-key': 'create-1' } });
    const again = await call('/posts', { body, headers: { 'idempotency-key': 'create-1' } });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.json).toEqual(first.json);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(await count('draft')).toBe(before + 1);

    const other = await call('/posts', { body: { post: { body: 'something else' } }, headers: { 'idempotency-key': 'create-1' } });
    expectError(other, 422, 'INVALID_PARAMETERS');
    expect(other.json.error.message).toContain('Idempotency-Key');
    expect(await count('draft')).toBe(before + 1);
  });

  it('runs concurrent duplicates once', async () => {
    const before = await count('draft');
    const body = { post: { body: 'concurrent' } };
    const answers = await Promise.all(Array.from({ length: 8 }, () => call('/posts', { body, headers: { 'idempotency-key': 'burst-1' } })));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(201));
    expect(new Set(answers.map((a) => a.json.post.id)).size).toBe(1);
    expect(await count('draft')).toBe(before + 1);
  });

  it('keeps validation failures too, and scopes keys to the token', async () => {
    const invalid = { post: { body: 'x', status: 'scheduled' } };
    const a = await call('/posts', { body: invalid, headers: { 'idempotency-key': 'bad-1' } });
    const b = await call('/posts', { body: invalid, headers: { 'idempotency-key': 'bad-1' } });
    expectError(a, 422, 'INVALID_PARAMETERS');
    expect(b.json).toEqual(a.json);
    const other = await createWorkspace(stack);
    const theirs = await stack.api('/posts', { token: other.apiKey, body: { post: { body: 'exactly once' } }, headers: { 'idempotency-key': 'create-1' }, localAddress: freshClientAddress() });
    expect(theirs.status).toBe(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expectError(await call('/posts', { body: { post: { body: 'y' } }, headers: { 'idempotency-key': 'a'.repeat(256) } }), 422, 'INVALID_PARAMETERS');
  });
});

describe('hostile input on the write endpoints', () => {
  it('refuses operator injection, absurd dates and huge arrays with a clear 422, storing nothing', async () => {
    const before = await count('draft,scheduled');
    const cases: Array<[string, unknown]> = [
      ['operator in a string field', { post: { body: { $gt: '' } } }],
      ['operator as an account id', { post: { body: 'x', post_accounts: [{ social_account_id: { $ne: 0 } }] } }],
      ['operator in a query-like key', { post: { body: 'x', $where: '1' } }],
      ['a date that is not a date', { post: { body: 'x', scheduled_at: '2026-02-30T25:61:00Z' } }],
      ['a date without a zone', { post: { body: 'x', scheduled_at: '2030-01-01 10:00' } }],
      ['a date in the year 275760', { post: { body: 'x', scheduled_at: '+275760-09-13T00:00:00.000Z' } }],
      ['too many contents', { post: { body: 'x', post_contents: Array.from({ length: 101 }, () => ({ platform: 'twitter' })) } }],
      ['too many targets', { post: { body: 'x', post_accounts: Array.from({ length: 51 }, (_, i) => ({ social_account_id: i + 1 })) } }],
    ];
    for (const [what, body] of cases) {
      const res = await call('/posts', { body });
      expect(res.status, `${what}: ${res.text}`).toBe(422);
      expect(res.json.error.code, what).toBe('INVALID_PARAMETERS');
      expect(res.json.error.details.length, what).toBeGreaterThan(0);
    }
    const filter = await call('/posts?status[$ne]=x');
    expect(filter.status).toBe(422);
    expect(await count('draft,scheduled')).toBe(before);
  });
});

describe('posts gRPC: a caller built before the typed enum fields (rolling deploy)', () => {
  it('is still understood through the deprecated string fields, and answered in both shapes', async () => {
    const posts = createClient(PostsServiceClient, stack.postsAddr);
    const own = await createWorkspace(stack);
    const account = (await stack.accounts.connectSocialAccount({ workspaceId: own.workspaceId, platform: 'twitter', username: 'old-caller', sandbox: true })).socialAccountId;
    try {
      const legacy = {
        workspaceId: own.workspaceId,
        body: 'from an old caller',
        status: 'scheduled',
        state: 0,
        scheduledAt: future(2),
        flexible: false,
        recurrenceJitterEnabled: false,
        evergreen: false,
        evergreenVariations: [],
        dryRun: false,
        postContents: [{ platform: 'twitter', platformKind: 0, contentType: 'text', contentKind: 0, metadataJson: '{"note":"old"}' }],
        socialAccountIds: [account],
        source: 'api',
      };
      await posts.createPost({ ...legacy, body: 'a draft', status: 'draft', scheduledAt: undefined });
      const { post } = await posts.createPost(legacy);
      expect(post).toMatchObject({ status: 'scheduled', state: PostStatus.POST_STATUS_SCHEDULED });
      expect(post!.postContents[0]).toMatchObject({ platform: 'twitter', platformKind: Platform.PLATFORM_TWITTER, contentType: 'text', metadata: { note: 'old' }, metadataJson: '{"note":"old"}' });

      const list = await posts.listPosts({
        workspaceId: own.workspaceId,
        statuses: ['scheduled'],
        states: [],
        platform: 'twitter',
        platformKind: 0,
        sort: 'scheduled_at',
        sortField: 0,
        sortDirection: 'asc',
        direction: 0,
        limit: 100,
        offset: 0,
      });
      const typed = await posts.listPosts(
        listPostsRequest({ workspaceId: own.workspaceId, statuses: ['scheduled'], platform: 'twitter', sort: 'scheduled_at', direction: 'asc', limit: 100, offset: 0 }),
      );
      expect(list.posts.map((p) => p.id)).toEqual(typed.posts.map((p) => p.id));
      expect(list.posts.map((p) => p.id)).toEqual([post!.id]);
      expect(typed.statusCounts).toEqual({ draft: 1, scheduled: 1 });
      expect(Object.fromEntries(list.counts.map((c) => [c.status, c.count]))).toEqual(typed.statusCounts);

      await expect(
        posts.listPosts({
          workspaceId: own.workspaceId,
          statuses: ['sent'],
          states: [],
          platform: undefined,
          platformKind: 0,
          sort: '',
          sortField: 0,
          sortDirection: '',
          direction: 0,
          limit: 10,
          offset: 0,
        }),
      ).rejects.toMatchObject({
        code: 'INVALID_PARAMETERS',
        details: [expect.stringContaining('status[0] must be one of draft')],
      });
      await expect(posts.createPost({ ...legacy, status: '', state: 99 as PostStatus })).rejects.toMatchObject({
        code: 'INVALID_PARAMETERS',
        details: [expect.stringContaining('status must be one of')],
      });
    } finally {
      posts.close();
    }
  });
});
