import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { jetstreamManager } from '@nats-io/jetstream';
import { connectNats } from '@spa/nats';
import {
  createWorkspace,
  dropDatabases,
  freshClientAddress,
  request,
  runAdmin,
  startProcess,
  TEST_INFRA,
  uniqueName,
  type HttpOptions,
  type RunningProcess,
  type Stack,
  type TestWorkspace,
} from '@spa/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { png } from '../support/media-files.js';
import { sharedStack } from '../support/shared-stack.js';

/**
 * A dry-run post goes API → scheduler → publisher → preflight (credentials checked, media read and
 * checked, text fitted) → posts.post.terminal → webhooks, and no platform receives anything that publishes.
 */
let stack: Stack;
let ws: TestWorkspace;
let webhooks: RunningProcess;
let receiver: http.Server;
const received: string[] = [];
const db = uniqueName('t_dry_run_hooks');
const consumer = uniqueName('dry_run_consumer');

beforeAll(async () => {
  stack = await sharedStack();
  ws = await createWorkspace(stack);
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  webhooks = await startProcess('webhooks', 'services/webhooks/dist/main.js', {
    MONGO_URL: TEST_INFRA.mongoUrl,
    NATS_URL: TEST_INFRA.natsUrl,
    MONGO_DB: db,
    GRPC_PORT: '0',
    // The stack's deployment: its posts events name it, and a webhooks process of another skips them.
    JOBS_NAMESPACE: stack.jobsNamespace,
    SECRETS_KEY: 'dry-run-test-secrets-key-0123456789abcdef',
    WEBHOOKS_ALLOW_PRIVATE: 'true',
    WEBHOOKS_CONSUMER: consumer,
    WEBHOOKS_POLL_INTERVAL_MS: '200',
  });
}, 300_000);
afterAll(async () => {
  await webhooks?.stop();
  const nc = await connectNats(TEST_INFRA.natsUrl, 'dry-run-cleanup');
  await (await jetstreamManager(nc)).consumers.delete('POSTS', consumer).catch(() => undefined);
  await nc.drain();
  receiver?.closeAllConnections();
  await new Promise((resolve) => receiver?.close(resolve));
  await stack?.stop();
  await dropDatabases([db]);
}, 120_000);

const call = (p: string, opts: HttpOptions = {}) => stack.api(p, { token: ws.apiKey, localAddress: freshClientAddress(), ...opts });
type Requests = Array<{ platform: string; method: string; path: string; creates: boolean; account: string }>;
const sandboxRequests = async (accounts: string[]) => ((await request(stack.sandboxUrl!, '/_sandbox/requests')).json.requests as Requests).filter((r) => accounts.includes(r.account));
const sandboxPosts = async (accounts: string[]) => ((await request(stack.sandboxUrl!, '/_sandbox/posts')).json.posts as Array<{ account: string }>).filter((p) => accounts.includes(p.account));

async function finished(id: number) {
  let post: Record<string, any> = {};
  await expect
    .poll(
      async () => {
        post = (await call(`/posts/${id}`)).json.post;
        return post.status;
      },
      { timeout: 30_000, interval: 250 },
    )
    .toMatch(/^(posted|failed|partial)$/);
  return post;
}

describe('dry-run posts', () => {
  it('end posted with every target dry_run, nothing published on any platform, and the webhook says dry_run', async () => {
    const created = await runAdmin(
      ['webhook', 'create', '--workspace', String(ws.workspaceId), '--url', `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, '--events', 'post.published'],
      { WEBHOOKS_ADDR: webhooks.address },
    );
    expect(created.code, created.stderr).toBe(0);
    const names = ['dry_x', 'dry_m', 'dry_b'];
    const ids = [];
    for (const [platform, username] of [
      ['twitter', 'dry_x'],
      ['mastodon', 'dry_m'],
      ['bluesky', 'dry_b'],
    ] as const) {
      ids.push((await stack.accounts.connectSocialAccount({ workspaceId: ws.workspaceId, platform, username, sandbox: true })).socialAccountId);
    }
    const upload = await call('/media/uploads', { body: { platform: 'twitter', content_type: 'image/png', media: (await png(120, 80)).toString('base64') } });
    expect(upload.status, upload.text).toBe(201);
    const media = [{ r2_key: upload.json.r2_key, type: 'image' }];
    const made = await call('/posts', {
      body: {
        post: {
          body: 'a rehearsal, never public',
          dry_run: true,
          post_contents: ['twitter', 'mastodon', 'bluesky'].map((platform) => ({ platform, body: 'a rehearsal, never public', metadata: { media } })),
          post_accounts: ids.map((id) => ({ social_account_id: id })),
        },
      },
    });
    expect(made.status, made.text).toBe(201);
    expect(made.json.post.dry_run).toBe(true);
    expect((await call(`/posts/${made.json.post.id}/publishes`, { method: 'POST', body: {} })).status).toBe(202);

    const post = await finished(made.json.post.id);
    expect(post.status, JSON.stringify(post.post_accounts)).toBe('posted');
    expect(post.dry_run).toBe(true);
    for (const a of post.post_accounts) expect(a).toMatchObject({ platform_status: 'dry_run', platform_post_id: null, permalink: null, platform_error: null });

    // Each platform was asked only to check the credentials (read-only calls); no create, upload or post.
    const asked = await sandboxRequests(names);
    expect(new Set(asked.map((r) => r.platform))).toEqual(new Set(['twitter', 'mastodon', 'bluesky']));
    expect(asked.filter((r) => r.creates || /media|upload|statuses|tweets|createRecord/i.test(r.path))).toEqual([]);
    expect(await sandboxPosts(names)).toEqual([]);

    const mine = () => received.map((b) => JSON.parse(b)).find((p) => p.post_id === made.json.post.id);
    await expect.poll(() => mine() !== undefined, { timeout: 20_000, interval: 200 }).toBe(true);
    expect(mine()).toMatchObject({ event: 'post.published', data: { status: 'posted', dry_run: true } });
    expect(mine().data.platforms).toHaveLength(3);
    for (const p of mine().data.platforms) expect(p).toMatchObject({ platform_status: 'dry_run', platform_post_id: null, platform_error: null });
  });

  it('a real post after it is published for real (the dry run changed nothing about real publishing)', async () => {
    const id = (await stack.accounts.connectSocialAccount({ workspaceId: ws.workspaceId, platform: 'mastodon', username: 'dry_real', sandbox: true })).socialAccountId;
    const made = await call('/posts', { body: { post: { body: 'this one is real', post_accounts: [{ social_account_id: id }] } } });
    expect((await call(`/posts/${made.json.post.id}/publishes`, { method: 'POST', body: {} })).status).toBe(202);
    const post = await finished(made.json.post.id);
    expect(post.post_accounts[0]).toMatchObject({ platform_status: 'posted' });
    expect(post.post_accounts[0].platform_post_id).toEqual(expect.any(String));
    expect(await sandboxPosts(['dry_real'])).toHaveLength(1);
  });

  it('a dry_run that is not a boolean is refused, naming the field, and nothing is created', async () => {
    const id = (await stack.accounts.connectSocialAccount({ workspaceId: ws.workspaceId, platform: 'twitter', username: 'dry_bad', sandbox: true })).socialAccountId;
    const before = (await call('/posts?status=draft,scheduled,posted')).json.meta.total_count;
    const bad = await call('/posts', { body: { post: { body: 'no', dry_run: 'yes', post_accounts: [{ social_account_id: id }] } } });
    expect(bad.status).toBe(422);
    expect(bad.json.error.code).toBe('INVALID_PARAMETERS');
    expect(JSON.stringify(bad.json.error)).toContain('dry_run');
    expect((await call('/posts?status=draft,scheduled,posted')).json.meta.total_count).toBe(before);
  });
});
