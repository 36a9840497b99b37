import { randomUUID } from 'node:crypto';
import { publicEvent, publishPublicEvent } from '@spa/events';
import { connectNats, jetstream } from '@spa/nats';
import { createWorkspace, freshClientAddress, request, startStack, TEST_INFRA, uniqueName, type HttpOptions, type Stack, type TestWorkspace } from '@spa/testing';
import { LIFECYCLE_EVENT_KINDS } from '@spa/vocabulary';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropStackEvents, eventually, startReceiver } from '../support/events.js';

/**
 * SIGKILL of the posts service between its changes and their relay: the first posts process relays nothing
 * (EVENTS_RELAY_HOLD, as if it died right after each change), so every change's events wait in its outbox when it
 * is killed. A new replica relays each of them once; an event published again under its id (a relay that died
 * between publishing and removing its entry) is neither logged nor delivered twice.
 */
let stack: Stack;
let ws: TestWorkspace;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  receiver = await startReceiver();
  stack = await startStack({ webhooks: true, postsEnv: { EVENTS_RELAY_HOLD: 'true' } });
  ws = await createWorkspace(stack, { tier: 'pro' });
  const r = await stack.admin(['webhook', 'create', '--workspace', String(ws.workspaceId), '--url', `${receiver.url}/all`, '--events', LIFECYCLE_EVENT_KINDS.join(',')]);
  expect(r.code, r.stderr).toBe(0);
}, 300_000);
afterAll(async () => {
  await stack?.stop();
  await receiver?.close();
  if (stack) await dropStackEvents(stack.jobsNamespace);
}, 120_000);

const via =
  (baseUrl: string) =>
  (path: string, opts: HttpOptions = {}) =>
    request(baseUrl, `/api/v1${path}`, { token: ws.apiKey, localAddress: freshClientAddress(), ...opts });

describe('a crash between the change and its relay', () => {
  it('loses no event and repeats none', async () => {
    const call = via(stack.baseUrl);
    const { socialAccountId } = await stack.accounts.connectSocialAccount({ workspaceId: ws.workspaceId, platform: 'mastodon', username: uniqueName('crash'), sandbox: true });
    const later = new Date(Date.now() + 2 * 86_400_000).toISOString();
    const posts: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await call('/posts', { body: { post: { body: `Held ${i}`, post_accounts: [{ social_account_id: socialAccountId }] } } });
      expect(res.status, res.text).toBe(201);
      posts.push(res.json.post.id as number);
    }
    // Four scheduled (updated + scheduled), four deleted, four left as drafts.
    for (const id of posts.slice(0, 4)) expect((await call(`/posts/${id}`, { method: 'PATCH', body: { post: { scheduled_at: later } } })).status).toBe(200);
    for (const id of posts.slice(4, 8)) expect((await call(`/posts/${id}`, { method: 'DELETE' })).status).toBe(200);
    const expected = [
      ...posts.map((id) => `post.created:${id}`),
      ...posts.slice(0, 4).flatMap((id) => [`post.updated:${id}`, `post.scheduled:${id}`]),
      ...posts.slice(4, 8).map((id) => `post.deleted:${id}`),
    ].sort();

    // Nothing has left the held process.
    const before = await call('/events');
    expect(before.json.events.filter((e: any) => e.event.startsWith('post.'))).toEqual([]);
    const held = stack.processes.find((p) => p.name === 'posts')!;
    await held.stop('SIGKILL');

    // A new replica (and a gateway that talks to it) relays what the killed one left.
    const posts2 = await stack.startPosts();
    const gateway = await stack.startGateway({ POSTS_ADDR: posts2.address });
    const call2 = via(`http://${gateway.address}`);
    const seen = () => receiver.deliveries.filter((d) => d.body.event.startsWith('post.')).map((d) => `${d.body.event}:${d.body.post_id}`);
    await eventually(seen, (s) => new Set(s).size >= expected.length, 90_000);

    // A relay's repeat: the first created event published again under its own id.
    const log = async () => {
      const res = await call2('/events?limit=1000');
      expect(res.status, res.text).toBe(200);
      return res.json.events as Array<Record<string, any>>;
    };
    const first = (await log()).find((e) => e.event === 'post.created')!;
    const nc = await connectNats(TEST_INFRA.natsUrl, 'events-crash-test');
    try {
      const again = publicEvent(first.id as string, ws.workspaceId, 'post.created', new Date(first.occurred_at as string), first.data as Record<string, unknown>);
      await publishPublicEvent(jetstream(nc), stack.jobsNamespace, again);
    } finally {
      await nc.close();
    }
    // A change made after it: once its delivery is in, the repeat (published before) has been handled too.
    const marker = await call2('/posts', { body: { post: { body: `Marker ${randomUUID()}`, post_accounts: [{ social_account_id: socialAccountId }] } } });
    expect(marker.status, marker.text).toBe(201);
    await eventually(seen, (s) => s.includes(`post.created:${marker.json.post.id}`), 60_000);

    const delivered = seen().filter((k) => k !== `post.created:${marker.json.post.id}`);
    expect(delivered.sort()).toEqual(expected);
    const logged = (await log()).filter((e) => e.event.startsWith('post.') && e.post_id !== marker.json.post.id);
    expect(logged.map((e) => `${e.event}:${e.post_id}`).sort()).toEqual(expected);
    expect(new Set(logged.map((e) => e.id)).size).toBe(logged.length);
    // Each delivery carries its log entry's id.
    const ids = new Map(logged.map((e) => [`${e.event}:${e.post_id}`, e.id]));
    for (const d of receiver.deliveries.filter((d) => d.body.event.startsWith('post.') && d.body.post_id !== marker.json.post.id))
      expect(d.body.event_id).toBe(ids.get(`${d.body.event}:${d.body.post_id}`));
  }, 300_000);
});
