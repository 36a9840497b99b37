import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace, freePort, freshClientAddress, request, type HttpOptions, type Stack, type TestWorkspace } from '@spa/testing';
import { expectError } from '../support/expect-error.js';
import { sharedStack } from '../support/shared-stack.js';

let stack: Stack;
beforeAll(async () => {
  stack = await sharedStack();
});
afterAll(async () => {
  await stack?.stop();
});

const call = (path: string, opts: HttpOptions = {}) => stack.api(path, { localAddress: freshClientAddress(), ...opts });
const future = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

async function connect(ws: TestWorkspace, platform: string, username = `${platform}-user`): Promise<number> {
  const { socialAccountId } = await stack.accounts.connectSocialAccount({ workspaceId: ws.workspaceId, platform, username, sandbox: true });
  return socialAccountId;
}

async function create(ws: TestWorkspace, post: Record<string, unknown>) {
  const res = await call('/posts', { token: ws.apiKey, body: { post } });
  expect(res.status, res.text).toBe(201);
  return res.json.post;
}

describe('POST /posts', () => {
  it('creates a scheduled post with per-platform contents and target accounts', async () => {
    const ws = await createWorkspace(stack);
    const x = await connect(ws, 'twitter');
    const li = await connect(ws, 'linkedin');
    const at = future(2);
    const post = await create(ws, {
      body: 'Default body',
      scheduled_at: at,
      post_contents: [{ platform: 'linkedin', body: 'Longer LinkedIn text', first_comment: 'Link in comments', metadata: { asset_urn: 'urn:li:image:1' } }],
      post_accounts: [{ social_account_id: x }, { social_account_id: li }],
    });
    expect(post).toMatchObject({
      status: 'scheduled',
      scheduled_at: at,
      source: 'api',
      body: 'Default body',
      posted_at: null,
      reviewed_at: null,
      dry_run: false,
    });
    expect(post.post_contents).toEqual([
      { id: expect.any(Number), platform: 'linkedin', body: 'Longer LinkedIn text', content_type: 'text', position: 0, first_comment: 'Link in comments', metadata: { asset_urn: 'urn:li:image:1' } },
      { id: expect.any(Number), platform: 'twitter', body: 'Default body', content_type: 'text', position: 0, first_comment: null, metadata: {} },
    ]);
    expect(post.post_accounts.map((a: { social_account_id: number; platform: string; platform_status: null }) => [a.social_account_id, a.platform, a.platform_status])).toEqual([
      [x, 'twitter', null],
      [li, 'linkedin', null],
    ]);
    const fetched = await call(`/posts/${post.id}`, { token: ws.apiKey });
    expect(fetched.status).toBe(200);
    expect(fetched.json.post).toEqual(post);
  });

  it('creates a draft without accounts or time', async () => {
    const ws = await createWorkspace(stack);
    const post = await create(ws, { body: 'An idea' });
    expect(post.status).toBe('draft');
    expect(post.scheduled_at).toBeNull();
  });

  it('refuses bad input with one detail per problem and stores nothing', async () => {
    const ws = await createWorkspace(stack);
    const other = await createWorkspace(stack);
    const foreign = await connect(other, 'twitter');
    const x = await connect(ws, 'twitter');
    const res = await call('/posts', {
      token: ws.apiKey,
      body: {
        post: {
          body: 'x',
          status: 'scheduled',
          scheduled_at: '2020-01-01T00:00:00Z',
          post_contents: [{ platform: 'twitter', content_type: 'document' }],
          post_accounts: [{ social_account_id: x }, { social_account_id: foreign }],
        },
      },
    });
    expectError(res, 422, 'INVALID_PARAMETERS');
    expect(res.json.error.details).toEqual([
      'scheduled_at must be in the future',
      `post_accounts[1].social_account_id ${foreign} is not a connected account of this workspace`,
      "post_contents[0].content_type is 'document', which twitter does not support (supported: text, image, video, poll)",
    ]);
    const list = await call('/posts?status=draft,scheduled,pending_review', { token: ws.apiKey });
    expect(list.json.meta.total_count).toBe(0);
  });

  it('rejects fields a client must not set, and wrong types, naming each', async () => {
    const ws = await createWorkspace(stack);
    const res = await call('/posts', { token: ws.apiKey, body: { post: { body: 5, id: 7, workspace_id: 2, posted_at: '2026-01-01T00:00:00Z', status: 'posted' } } });
    expectError(res, 422, 'INVALID_PARAMETERS');
    const details: string[] = res.json.error.details;
    expect(details.some((d) => d.startsWith('post.body:'))).toBe(true);
    expect(details.some((d) => d.startsWith('post.status:'))).toBe(true);
    expect(details.some((d) => d.includes('"id"') && d.includes('"workspace_id"') && d.includes('"posted_at"'))).toBe(true);
    const missing = await call('/posts', { token: ws.apiKey, body: { body: 'not wrapped' } });
    expectError(missing, 422, 'INVALID_PARAMETERS');
    expect(missing.json.error.details).toContain('post: Invalid input: expected object, received undefined');
  });

  it('requires accounts and a time for a scheduled post', async () => {
    const ws = await createWorkspace(stack);
    const res = await call('/posts', { token: ws.apiKey, body: { post: { body: 'x', status: 'scheduled' } } });
    expectError(res, 422, 'INVALID_PARAMETERS');
    expect(res.json.error.details).toEqual(['scheduled_at is required when status is scheduled', 'post_accounts must name at least one account when status is scheduled']);
  });
});

describe('GET /posts/{id}', () => {
  it("answers another workspace's post, a missing post and a bad id correctly", async () => {
    const a = await createWorkspace(stack);
    const b = await createWorkspace(stack);
    const post = await create(a, { body: 'mine' });
    expectError(await call(`/posts/${post.id}`, { token: b.apiKey }), 404, 'NOT_FOUND');
    expectError(await call('/posts/99999999', { token: a.apiKey }), 404, 'NOT_FOUND');
    const bad = await call('/posts/abc', { token: a.apiKey });
    expectError(bad, 422, 'INVALID_PARAMETERS');
    expect(bad.json.error.details[0]).toMatch(/^id:/);
  });
});

describe('GET /posts', () => {
  let ws: TestWorkspace;
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    ws = await createWorkspace(stack);
    const x = await connect(ws, 'twitter');
    const li = await connect(ws, 'linkedin');
    ids.draft = (await create(ws, { body: 'draft one' })).id;
    ids.soonX = (await create(ws, { body: 'soon on X', scheduled_at: future(1), post_accounts: [{ social_account_id: x }] })).id;
    ids.laterLi = (await create(ws, { body: 'later on LinkedIn', scheduled_at: future(10), post_accounts: [{ social_account_id: li }] })).id;
    ids.both = (await create(ws, { body: 'both', scheduled_at: future(5), post_accounts: [{ social_account_id: x }, { social_account_id: li }] })).id;
    await stack.accounts.setReviewRequired({ workspaceId: ws.workspaceId, required: true });
    ids.review = (await create(ws, { body: 'needs review', scheduled_at: future(3), post_accounts: [{ social_account_id: x }] })).id;
    await stack.accounts.setReviewRequired({ workspaceId: ws.workspaceId, required: false });
  });
  const list = async (query: string) => {
    const res = await call(`/posts${query}`, { token: ws.apiKey });
    expect(res.status, res.text).toBe(200);
    return res.json;
  };
  const idsOf = (json: { posts: Array<{ id: number }> }) => json.posts.map((p) => p.id);

  it('returns the queue statuses by default, newest first, with counts and meta', async () => {
    const json = await list('');
    expect(idsOf(json)).toEqual([ids.review, ids.both, ids.laterLi, ids.soonX, ids.draft]);
    expect(json.counts).toEqual({ draft: 1, pending_review: 1, scheduled: 3, publishing: 0, posted: 0, failed: 0, partial: 0 });
    expect(json.meta).toEqual({ limit: 100, offset: 0, total_count: 5 });
    for (const p of json.posts) for (const f of ['id', 'status', 'scheduled_at', 'source', 'post_contents', 'body']) expect(p).toHaveProperty(f);
  });

  it('filters by status, platform, source and scheduled window, and sorts', async () => {
    expect(idsOf(await list('?status=draft'))).toEqual([ids.draft]);
    expect(idsOf(await list('?status=scheduled,pending_review&sort=scheduled_at&sort_direction=asc'))).toEqual([ids.soonX, ids.review, ids.both, ids.laterLi]);
    expect(idsOf(await list('?platform=linkedin&sort=id&sort_direction=asc'))).toEqual([ids.laterLi, ids.both]);
    expect(idsOf(await list('?source=api&status=draft'))).toEqual([ids.draft]);
    expect((await list('?source=blog')).posts).toEqual([]);
    const after = encodeURIComponent(future(2));
    const before = encodeURIComponent(future(6));
    expect(idsOf(await list(`?scheduled_after=${after}&scheduled_before=${before}&sort=scheduled_at&sort_direction=asc`))).toEqual([ids.review, ids.both]);
    const status = await list('?status=posted');
    expect(status.posts).toEqual([]);
    expect(status.counts.scheduled).toBe(3);
  });

  it('pages with limit and offset until offset + limit >= total_count, and clamps limit to 200', async () => {
    const seen: number[] = [];
    for (let offset = 0; ; offset += 2) {
      const page = await list(`?limit=2&offset=${offset}&sort=id&sort_direction=asc`);
      expect(page.meta).toEqual({ limit: 2, offset, total_count: 5 });
      seen.push(...idsOf(page));
      if (offset + 2 >= page.meta.total_count) break;
    }
    expect(seen).toEqual([ids.draft, ids.soonX, ids.laterLi, ids.both, ids.review]);
    expect((await list('?limit=1000')).meta.limit).toBe(200);
  });

  it('refuses bad query parameters, naming each', async () => {
    const res = await call('/posts?status=draft,bogus&limit=0&sort=name&platform=myspace&scheduled_after=yesterday&extra=1', { token: ws.apiKey });
    expectError(res, 422, 'INVALID_PARAMETERS');
    const fields = (res.json.error.details as string[]).map((d) => d.split(':')[0]);
    expect(fields).toEqual(expect.arrayContaining(['status', 'limit', 'sort', 'platform', 'scheduled_after']));
    expect((res.json.error.details as string[]).some((d) => d.includes('"extra"'))).toBe(true);
  });

  it("never shows another workspace's posts", async () => {
    const other = await createWorkspace(stack);
    expect((await call('/posts', { token: other.apiKey })).json.meta.total_count).toBe(0);
  });
});

describe('GET /posts answers kept by the gateway (answer cache)', () => {
  it('serves a repeated list from the cache, yet shows every write at once through another gateway, per workspace', async () => {
    const metricsPort = await freePort();
    const other = await stack.startGateway({ METRICS_PORT: String(metricsPort) });
    const viaOther = async (ws: TestWorkspace, path: string) => {
      const res = await request(`http://${other.address}`, `/api/v1${path}`, { token: ws.apiKey, localAddress: freshClientAddress() });
      expect(res.status, res.text).toBe(200);
      return res.json as { posts: Array<{ id: number; body: string }>; meta: { total_count: number } };
    };
    const hits = async () => {
      const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      return Number(/list_cache_total\{cache="gateway_answers",result="hit"[^}]*\} (\d+)/.exec(text)?.[1] ?? 0);
    };
    const [a, b] = [await createWorkspace(stack), await createWorkspace(stack)];
    const first = await create(a, { body: 'first' });
    const url = '/posts?status=draft&limit=5';
    expect((await viaOther(a, url)).posts.map((p) => p.body)).toEqual(['first']);
    const before = await hits();
    expect((await viaOther(a, url)).posts.map((p) => p.body)).toEqual(['first']);
    expect(await hits()).toBe(before + 1);
    // Another workspace asking the same URL gets its own answer, never the kept one.
    expect((await viaOther(b, url)).meta.total_count).toBe(0);

    // Writes through the first gateway: each seen by the very next list through the other one.
    const second = await create(a, { body: 'second' });
    expect((await viaOther(a, url)).posts.map((p) => p.body)).toEqual(['second', 'first']);
    const patched = await call(`/posts/${first.id}`, { method: 'PATCH', token: a.apiKey, body: { post: { body: 'first, edited' } } });
    expect(patched.status, patched.text).toBe(200);
    expect((await viaOther(a, url)).posts.map((p) => p.body)).toEqual(['second', 'first, edited']);
    const deleted = await call(`/posts/${second.id}`, { method: 'DELETE', token: a.apiKey });
    expect(deleted.status, deleted.text).toBe(200);
    expect(await viaOther(a, url)).toMatchObject({ posts: [{ id: first.id, body: 'first, edited' }], meta: { total_count: 1 } });
    expect((await viaOther(b, url)).meta.total_count).toBe(0);
    await other.stop();
  });
});

describe('review and approval', () => {
  it('starts API posts in pending_review when the workspace requires review, and approves them', async () => {
    const ws = await createWorkspace(stack, { tier: 'team', reviewRequired: true });
    const x = await connect(ws, 'twitter');
    const at = future(1);
    const scheduled = await create(ws, { body: 'check me', scheduled_at: at, post_accounts: [{ social_account_id: x }] });
    const draft = await create(ws, { body: 'draft to check' });
    expect(scheduled.status).toBe('pending_review');
    expect(draft.status).toBe('pending_review');

    const approved = await call(`/posts/${scheduled.id}/approve`, { token: ws.apiKey, method: 'POST' });
    expect(approved.status).toBe(200);
    expect(approved.json.post).toMatchObject({ id: scheduled.id, status: 'scheduled', scheduled_at: at, review_action: 'approved' });
    expect(Date.parse(approved.json.post.reviewed_at)).toBeGreaterThan(Date.now() - 60_000);
    const approvedDraft = await call(`/posts/${draft.id}/approve`, { token: ws.apiKey, method: 'POST' });
    expect(approvedDraft.json.post.status).toBe('draft');

    const again = await call(`/posts/${scheduled.id}/approve`, { token: ws.apiKey, method: 'POST' });
    expectError(again, 422, 'INVALID_STATE');
    expect(again.json.error.message).toContain('pending_review');
  });

  it('answers 404 for approving a missing or foreign post', async () => {
    const a = await createWorkspace(stack, { reviewRequired: true });
    const b = await createWorkspace(stack);
    const post = await create(a, { body: 'x' });
    expectError(await call(`/posts/${post.id}/approve`, { token: b.apiKey, method: 'POST' }), 404, 'NOT_FOUND');
    expectError(await call('/posts/424242/approve', { token: a.apiKey, method: 'POST' }), 404, 'NOT_FOUND');
  });
});
