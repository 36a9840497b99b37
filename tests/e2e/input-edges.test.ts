import { CreatePostRequest, PostsServiceClient } from '@spa/contracts/posts/v1/posts';
import { AppError } from '@spa/errors';
import { createClient } from '@spa/grpc';
import { createWorkspace, freshClientAddress, uniqueName, type HttpOptions, type Stack, type TestWorkspace } from '@spa/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/expect-error.js';
import { sharedStack } from '../support/shared-stack.js';

/**
 * Input at the edges of what the API takes: control characters in text, integers at and past the width of
 * the field they travel in, and options the contract leaves out. Each is refused with a 422 naming the
 * field (never a 500), or taken with its documented default.
 */
let stack: Stack;
let ws: TestWorkspace;
let instagram: number;

beforeAll(async () => {
  stack = await sharedStack();
  ws = await createWorkspace(stack, { tier: 'pro' });
  ({ socialAccountId: instagram } = await stack.accounts.connectSocialAccount({ workspaceId: ws.workspaceId, platform: 'instagram', username: uniqueName('ig'), sandbox: true }));
}, 240_000);
afterAll(async () => {
  await stack?.stop();
});

const call = (path: string, opts: HttpOptions = {}) => stack.api(path, { token: ws.apiKey, localAddress: freshClientAddress(), ...opts });

/** A 422 whose details name `field`. */
function expectRefused(res: Awaited<ReturnType<typeof call>>, field: string): void {
  expectError(res, 422, 'INVALID_PARAMETERS');
  const details: string[] = res.json.error.details ?? [res.json.error.message];
  expect(
    details.some((d) => d.startsWith(`${field}:`) || d.startsWith(`${field} `)),
    `${field} named in ${res.text}`,
  ).toBe(true);
}

describe('control characters in text', () => {
  it('refuses NUL and the other C0 controls in any text field with a 422 naming it, and stores nothing', async () => {
    const before = await call('/posts?status=draft');
    for (const bad of ['\u0000', 'a\u0000b', '\u0007', '\u001b[31m', '\u000b', '\u000c']) {
      expectRefused(await call('/posts', { method: 'POST', body: { post: { body: `hello ${bad}` } } }), 'post.body');
      expectRefused(await call('/posts', { method: 'POST', body: { post: { body: 'fine', post_contents: [{ platform: 'instagram', body: bad }] } } }), 'post.post_contents[0].body');
      expectRefused(await call('/custom_rules', { method: 'POST', body: { custom_rule: { title: `rule${bad}`, content: 'be brief' } } }), 'custom_rule.title');
    }
    expectRefused(await call(`/posts?source=${encodeURIComponent('site\u0000')}`), 'source');
    const after = await call('/posts?status=draft');
    expect(after.json.meta.total_count).toBe(before.json.meta.total_count);
  });

  it('takes tab, carriage return and line feed', async () => {
    const res = await call('/posts', { method: 'POST', body: { post: { body: 'one\ttwo\r\nthree\nfour' } } });
    expect(res.status, res.text).toBe(201);
    expect(res.json.post.body).toBe('one\ttwo\r\nthree\nfour');
  });

  it('the services refuse them too, whoever calls (INVALID_PARAMETERS naming the field)', async () => {
    const posts = createClient(PostsServiceClient, stack.postsAddr);
    const refusal = async (request: CreatePostRequest) => {
      const err = await posts.createPost(request).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).code, String(err)).toBe('INVALID_PARAMETERS');
      return (err as AppError).details ?? [];
    };
    try {
      expect(await refusal(CreatePostRequest.fromPartial({ workspaceId: ws.workspaceId, body: 'hi\u0000there' }))).toEqual([expect.stringMatching(/^body: /)]);
      expect(await refusal(CreatePostRequest.fromPartial({ workspaceId: ws.workspaceId, body: 'ok', postContents: [{ platform: 'instagram', body: 'x\u0001' }] }))).toEqual([
        expect.stringMatching(/^post_contents\[0\]\.body: /),
      ]);
    } finally {
      posts.close();
    }
  });
});

describe('requests that do not decode', () => {
  it('a body that is not what its Content-Encoding says is a 422 in the envelope', async () => {
    const res = await call('/custom_rules', { method: 'POST', body: { custom_rule: { title: 't', content: 'c' } }, headers: { 'content-encoding': 'gzip' } });
    expectError(res, 422, 'INVALID_PARAMETERS');
    expect(res.json.error.message).toMatch(/Request body could not be read/);
  });

  it('a path segment that is not valid percent-encoding is a 422 on the API and a 404 at the media relay', async () => {
    const api = await call('/posts/%ZZ');
    expectError(api, 422, 'INVALID_PARAMETERS');
    expect(api.json.error.message).toMatch(/path parameters: "%ZZ" is not valid percent-encoding/);
    for (const method of ['GET', 'PUT']) expectError(await stack.http('/media/%ZZ', { method, localAddress: freshClientAddress() }), 404, 'NOT_FOUND');
  });
});

describe('integers at the width of their field', () => {
  const runBody = (overrides: Record<string, unknown>) => ({ topic: 'focus', platform_config: { instagram: { social_account_id: instagram } }, dry_run: true, ...overrides });

  it('refuses list offsets and limits past 32 bits with a 422 naming them', async () => {
    expectRefused(await call('/image_week_runs?offset=2147483648'), 'offset');
    expectRefused(await call('/image_week_runs?limit=9007199254740993'), 'limit');
    const last = await call('/image_week_runs?offset=2147483647');
    expect(last.status, last.text).toBe(200);
    expect(last.json.image_week_runs).toEqual([]);
  });

  it('refuses cutoff_days and watermark_every_n past their range, 0 included, naming them', async () => {
    for (const cutoff of [0, -1, 15, 2 ** 31, 2 ** 53]) expectRefused(await call('/image_week_runs', { method: 'POST', body: runBody({ cutoff_days: cutoff }) }), 'cutoff_days');
    for (const n of [0, 101, 2 ** 31, -(2 ** 31) - 1]) expectRefused(await call('/image_week_runs', { method: 'POST', body: runBody({ watermark_every_n: n }) }), 'watermark_every_n');
    expectRefused(await call('/image_week_runs', { method: 'POST', body: runBody({ content_plan_id: 2 ** 53 }) }), 'content_plan_id');
  });

  it('refuses ids past 2^53 and counts past 32 bits in post bodies', async () => {
    expectRefused(await call('/posts', { method: 'POST', body: { post: { body: 'x', recurrence_interval_days: 2 ** 31 } } }), 'post.recurrence_interval_days');
    expectRefused(await call('/posts', { method: 'POST', body: { post: { body: 'x', post_accounts: [{ social_account_id: 2 ** 53 }] } } }), 'post.post_accounts[0].social_account_id');
    const poll = (duration_minutes: number) => ({ post: { body: 'x', post_contents: [{ platform: 'twitter', metadata: { poll: { options: ['a', 'b'], duration_minutes } } }] } });
    for (const minutes of [2 ** 31, 1e308, 4, 1.5]) expectRefused(await call('/posts', { method: 'POST', body: poll(minutes) }), 'post_contents[0].metadata.poll.duration_minutes');
  });
});

describe("Quote Week's watermark as the contract has it", () => {
  it("turns the watermark on without watermark_text: each card carries its account's @handle", async () => {
    const res = await call('/image_week_runs', {
      method: 'POST',
      body: { topic: 'focus', platform_config: { instagram: { social_account_id: instagram } }, watermark_enabled: true, cutoff_days: 1, dry_run: true },
    });
    expect(res.status, res.text).toBe(201);
    // The handle itself is the image-week service's to pick (validate-run.test.ts); the run states no text of its own.
    expect(res.json.image_week_run).toMatchObject({ watermark_enabled: true, watermark_text: null, watermark_every_n: 1, dry_run: true });
  });
});
