import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { jetstreamManager } from '@nats-io/jetstream';
import { connectNats } from '@spa/nats';
import { createWorkspace, dropDatabases, freshClientAddress, request, runAdmin, startProcess, TEST_INFRA, uniqueName, type RunningProcess, type Stack } from '@spa/testing';
import { verifySignature } from '@spa/webhook-signature';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedStack } from '../support/shared-stack.js';

/** The whole path: API → scheduler → publisher → sandbox platform → posts.post.terminal → webhooks → a signed POST. */
let stack: Stack;
let webhooks: RunningProcess;
let receiver: http.Server;
const received: Array<{ body: string; signature: string | undefined }> = [];
const db = uniqueName('t_webhooks_chain');
const consumer = uniqueName('chain_consumer');

beforeAll(async () => {
  stack = await sharedStack();
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ body: Buffer.concat(chunks).toString('utf8'), signature: req.headers['x-service-signature'] as string | undefined });
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
    SECRETS_KEY: 'chain-test-secrets-key-0123456789abcdef',
    WEBHOOKS_ALLOW_PRIVATE: 'true',
    WEBHOOKS_CONSUMER: consumer,
    WEBHOOKS_POLL_INTERVAL_MS: '200',
  });
}, 90_000);
afterAll(async () => {
  await webhooks?.stop();
  const nc = await connectNats(TEST_INFRA.natsUrl, 'chain-cleanup');
  await (await jetstreamManager(nc)).consumers.delete('POSTS', consumer).catch(() => undefined);
  await nc.drain();
  receiver?.closeAllConnections();
  await new Promise((resolve) => receiver?.close(resolve));
  await stack?.stop();
  await dropDatabases([db]);
});

describe('a published post reaches a webhook receiver', () => {
  it('delivers post.published, signed, with the platform results', async () => {
    const ws = await createWorkspace(stack);
    const { socialAccountId } = await stack.accounts.connectSocialAccount({ workspaceId: ws.workspaceId, platform: 'mastodon', username: 'chain_user', sandbox: true });
    const created = await runAdmin(
      ['webhook', 'create', '--workspace', String(ws.workspaceId), '--url', `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, '--events', 'post.published'],
      { WEBHOOKS_ADDR: webhooks.address },
    );
    expect(created.code, created.stderr).toBe(0);
    const { secret } = JSON.parse(created.stdout) as { secret: string };

    const call = (path: string, body?: unknown) => stack.api(path, { token: ws.apiKey, localAddress: freshClientAddress(), ...(body === undefined ? {} : { body }) });
    const post = (await call('/posts', { post: { body: 'all the way through', post_accounts: [{ social_account_id: socialAccountId }] } })).json.post;
    expect((await call(`/posts/${post.id}/publishes`, {})).status).toBe(202);

    const remoteId = async () =>
      ((await request(stack.sandboxUrl!, '/_sandbox/posts?platform=mastodon')).json.posts as Array<{ id: string; text: string }>).find((p) => p.text === 'all the way through')?.id;
    await expect.poll(remoteId, { timeout: 20_000 }).toBeDefined();
    const platformPostId = await remoteId();
    const mine = () => received.find((r) => (JSON.parse(r.body) as { data?: { platforms?: Array<{ platform_post_id?: string }> } }).data?.platforms?.[0]?.platform_post_id === platformPostId);
    await expect.poll(() => mine() !== undefined, { timeout: 20_000, interval: 200 }).toBe(true);
    const delivery = mine()!;
    const payload = JSON.parse(delivery.body);
    expect(payload).toMatchObject({
      event: 'post.published',
      post_id: post.id,
      data: { status: 'posted', platforms: [{ platform: 'mastodon', platform_status: 'posted', platform_post_id: platformPostId, platform_error: null }] },
    });
    expect(payload.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(verifySignature(delivery.body, delivery.signature, secret).valid).toBe(true);
  });
});
