import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { jetstreamManager } from '@nats-io/jetstream';
import { createApiClient, unwrap, verifyWebhook, ApiError } from '@spa/sdk';
import { connectNats } from '@spa/nats';
import { createWorkspace, dropDatabases, runAdmin, startProcess, TEST_INFRA, uniqueName, type RunningProcess, type Stack } from '@spa/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedStack } from '../support/shared-stack.js';

/** The SDK against the real stack: create, publish, receive the signed webhook, verify it. */
let stack: Stack;
let webhooks: RunningProcess;
let receiver: http.Server;
const received: Array<{ body: Buffer; signature: string | undefined }> = [];
const db = uniqueName('t_webhooks_sdk');
const consumer = uniqueName('sdk_consumer');

beforeAll(async () => {
  stack = await sharedStack();
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ body: Buffer.concat(chunks), signature: req.headers['x-service-signature'] as string | undefined });
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
    SECRETS_KEY: 'sdk-test-secrets-key-0123456789abcdef',
    WEBHOOKS_ALLOW_PRIVATE: 'true',
    WEBHOOKS_CONSUMER: consumer,
    WEBHOOKS_POLL_INTERVAL_MS: '200',
  });
}, 180_000);
afterAll(async () => {
  await webhooks?.stop();
  const nc = await connectNats(TEST_INFRA.natsUrl, 'sdk-cleanup');
  await (await jetstreamManager(nc)).consumers.delete('POSTS', consumer).catch(() => undefined);
  await nc.drain();
  receiver?.closeAllConnections();
  await new Promise((resolve) => receiver?.close(resolve));
  await stack?.stop();
  await dropDatabases([db]);
});

describe('the SDK, end to end', () => {
  it('creates and publishes a post, then verifies the signed post.published webhook', async () => {
    const ws = await createWorkspace(stack);
    const { socialAccountId } = await stack.accounts.connectSocialAccount({ workspaceId: ws.workspaceId, platform: 'mastodon', username: 'sdk_user', sandbox: true });
    const created = await runAdmin(
      ['webhook', 'create', '--workspace', String(ws.workspaceId), '--url', `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, '--events', 'post.published'],
      { WEBHOOKS_ADDR: webhooks.address },
    );
    expect(created.code, created.stderr).toBe(0);
    const { secret } = JSON.parse(created.stdout) as { secret: string };

    const api = createApiClient({ baseUrl: `${stack.baseUrl}/api/v1`, apiKey: ws.apiKey });
    const { post } = await unwrap(api.POST('/posts', { body: { post: { body: 'sent with the SDK', post_accounts: [{ social_account_id: socialAccountId }] } } }));
    expect(post.status).toBe('draft');
    const published = await unwrap(api.POST('/posts/{post_id}/publishes', { params: { path: { post_id: post.id } }, body: {} }));
    expect(published.post.status).toBe('publishing');

    const mine = () => received.find((r) => (JSON.parse(r.body.toString()) as { post_id?: number }).post_id === post.id);
    await expect.poll(() => mine() !== undefined, { timeout: 30_000, interval: 200 }).toBe(true);
    const delivery = mine()!;
    const event = verifyWebhook(delivery.body, delivery.signature, secret);
    expect(event).toMatchObject({ event: 'post.published', post_id: post.id, data: { status: 'posted', platforms: [{ platform: 'mastodon', platform_status: 'posted' }] } });
    expect(() => verifyWebhook(delivery.body, delivery.signature, 'whsec_wrong')).toThrow(/does not match/);

    const { post: after } = await unwrap(api.GET('/posts/{id}', { params: { path: { id: post.id } } }));
    expect(after.status).toBe('posted');
    const all: number[] = [];
    for await (const p of api.listAllPosts({ status: 'posted', limit: 1 })) all.push(p.id);
    expect(all).toEqual([post.id]);

    const refused = await unwrap(api.GET('/posts/{id}', { params: { path: { id: post.id + 1_000_000 } } })).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });
});
