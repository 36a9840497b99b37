import { createWorkspace, freshClientAddress, request, startStack, uniqueName, type HttpOptions, type Stack, type TestWorkspace } from '@spa/testing';
import { LIFECYCLE_EVENT_KINDS, TERMINAL_EVENT_KINDS } from '@spa/vocabulary';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dash, inviteUser, signIn } from '../support/dashboard.js';
import { dropStackEvents, eventually, payloadChecker, signedWith, startReceiver, type Delivery } from '../support/events.js';

/**
 * Events for automation end to end, on the real processes: every lifecycle kind delivered signed, once per change,
 * to the webhook that chose it and never to one that did not, each payload valid against the OpenAPI document and
 * in the event log under the same id; account health through token refreshes (a passing failure stays ok and is
 * retried, a refused renewal is reauth_required with its event, a token that cannot be renewed warns ahead).
 */
let stack: Stack;
let ws: TestWorkspace;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let check: Awaited<ReturnType<typeof payloadChecker>>;
const secrets: Record<string, string> = {};

beforeAll(async () => {
  receiver = await startReceiver();
  // The refresh job runs every 300 ms and renews tokens expiring within a minute.
  stack = await startStack({ webhooks: true, publishing: true, accountsEnv: { TOKEN_REFRESH_INTERVAL_MS: '300', TOKEN_REFRESH_AHEAD_MS: '60000', EVENTS_RELAY_INTERVAL_MS: '500' } });
  ws = await createWorkspace(stack, { tier: 'pro' });
  check = await payloadChecker(stack);
  // /all chose every kind; /default chose none (the terminal post events).
  secrets.all = await webhook('/all', [...TERMINAL_EVENT_KINDS, ...LIFECYCLE_EVENT_KINDS]);
  secrets.default = await webhook('/default', []);
}, 300_000);
afterAll(async () => {
  await stack?.stop();
  await receiver?.close();
  if (stack) await dropStackEvents(stack.jobsNamespace);
}, 120_000);

const call = (path: string, opts: HttpOptions = {}) => stack.api(path, { token: ws.apiKey, localAddress: freshClientAddress(), ...opts });
const sandbox = (path: string, body?: unknown) => request(stack.sandboxUrl!, path, body === undefined ? {} : { body });

async function admin(args: string[]): Promise<Record<string, any>> {
  const r = await stack.admin(args);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Record<string, any>;
}

async function webhook(path: string, events: string[]): Promise<string> {
  const created = await admin(['webhook', 'create', '--workspace', String(ws.workspaceId), '--url', `${receiver.url}${path}`, ...(events.length ? ['--events', events.join(',')] : [])]);
  return created.secret as string;
}

const at = (path: string) => receiver.deliveries.filter((d) => d.path === path);
const delivered = (path: string, kind: string, match: (d: Delivery) => boolean = () => true) => at(path).filter((d) => d.body.event === kind && match(d));
const forPost = (postId: number) => (d: Delivery) => d.body.post_id === postId;
const forAccount = (id: number) => (d: Delivery) => d.body.data.social_account_id === id;

/** Waits until the /all webhook got `kind` (matching) `count` times; answers those deliveries. */
async function waitFor(kind: string, match: (d: Delivery) => boolean, count = 1): Promise<Delivery[]> {
  return eventually(
    () => delivered('/all', kind, match),
    (ds) => ds.length >= count,
    60_000,
  );
}

/** The whole event log of the workspace, page by page. */
async function eventLog(kinds?: string): Promise<Array<Record<string, any>>> {
  const events: Array<Record<string, any>> = [];
  let after = '0';
  for (;;) {
    const res = await call(`/events?after=${after}&limit=1000${kinds ? `&kinds=${kinds}` : ''}`);
    expect(res.status, res.text).toBe(200);
    events.push(...res.json.events);
    after = res.json.next_cursor;
    if (!res.json.has_more) return events;
  }
}

async function connectOAuth(platform: string, user: string, workspaceId = ws.workspaceId): Promise<number> {
  const out = await admin(['account', 'connect-url', '--workspace', String(workspaceId), '--platform', platform]);
  const url = new URL(out.authorization_url as string);
  url.searchParams.set('sandbox_user', user);
  const approved = await fetch(url, { redirect: 'manual' });
  expect(approved.status).toBe(302);
  const page = await fetch(approved.headers.get('location')!, { redirect: 'manual' });
  const html = await page.text();
  expect(page.status, html).toBe(200);
  return Number(/social account (\d+)/.exec(html)?.[1]);
}

describe('lifecycle events', () => {
  it('delivers each chosen kind signed, once per change, valid against the OpenAPI document, with its id in the event log; a default webhook gets only the terminal events', async () => {
    // account.connected (a sandbox account connected by the operator).
    const { socialAccountId: twitter } = await stack.accounts.connectSocialAccount({ workspaceId: ws.workspaceId, platform: 'twitter', username: uniqueName('tw'), sandbox: true });
    await waitFor('account.connected', forAccount(twitter));

    // post.created (a draft), post.updated + post.scheduled (given a time), post.deleted.
    const created = await call('/posts', { body: { post: { body: 'Lifecycle', post_accounts: [{ social_account_id: twitter }] } } });
    expect(created.status, created.text).toBe(201);
    const draft = created.json.post.id as number;
    const later = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const patched = await call(`/posts/${draft}`, { method: 'PATCH', body: { post: { scheduled_at: later } } });
    expect(patched.status, patched.text).toBe(200);
    await waitFor('post.scheduled', forPost(draft));
    expect((await call(`/posts/${draft}`, { method: 'DELETE' })).status).toBe(200);
    await waitFor('post.deleted', forPost(draft));

    // Review: post.approved (+ post.scheduled), post.rejected.
    await stack.accounts.setReviewRequired({ workspaceId: ws.workspaceId, required: true });
    const toApprove = (await call('/posts', { body: { post: { body: 'Approve me', scheduled_at: later, post_accounts: [{ social_account_id: twitter }] } } })).json.post.id as number;
    const toReject = (await call('/posts', { body: { post: { body: 'Reject me', post_accounts: [{ social_account_id: twitter }] } } })).json.post.id as number;
    expect((await call(`/posts/${toApprove}/approve`, { method: 'POST' })).status).toBe(200);
    expect((await call(`/posts/${toReject}/reject`, { method: 'POST', body: { rejection_reason: 'Not on brand' } })).status).toBe(200);
    await stack.accounts.setReviewRequired({ workspaceId: ws.workspaceId, required: false });
    await waitFor('post.approved', forPost(toApprove));
    await waitFor('post.rejected', forPost(toReject));

    // site_push.consumed: an article made into one draft per rule.
    const site = await admin(['site', 'create', '--workspace', String(ws.workspaceId), '--name', 'Events blog', '--url', 'https://events.example.com', '--cms', 'ghost']);
    await admin(['site', 'rule', 'add', '--site', String(site.site_id), '--platform', 'twitter']);
    const pushed = await request(stack.baseUrl, '/api/v1/site_pushes', {
      token: site.token as string,
      localAddress: freshClientAddress(),
      body: { url: 'https://events.example.com/posts/hello', title: 'Hello events', excerpt: 'What happens is told.' },
    });
    expect(pushed.status, pushed.text).toBe(201);
    const [consumed] = await waitFor('site_push.consumed', (d) => d.body.data.site_id === site.site_id);

    // image_week_run.failed: a run whose only account has a paused schedule plans nothing.
    const { socialAccountId: instagram } = await stack.accounts.connectSocialAccount({ workspaceId: ws.workspaceId, platform: 'instagram', username: uniqueName('ig'), sandbox: true });
    const { postingSchedule } = await stack.accounts.getPostingSchedule({ workspaceId: ws.workspaceId, socialAccountId: instagram });
    await stack.accounts.updatePostingSchedule({
      workspaceId: ws.workspaceId,
      scheduleId: postingSchedule!.id,
      timezone: 'UTC',
      maxPostsPerDay: 5,
      paused: true,
      hasPostingSlots: false,
      postingSlots: [],
    });
    const run = await call('/image_week_runs', {
      method: 'POST',
      body: { topic: 'courage', platform_config: { instagram: { social_account_id: instagram } }, cutoff_days: 3, schedule_mode: 'scheduled', dry_run: true },
    });
    expect(run.status, run.text).toBe(201);
    const [runEnd] = await waitFor('image_week_run.failed', (d) => d.body.data.image_week_run_id === run.json.image_week_run.id);
    expect(runEnd!.body.data).toMatchObject({ status: 'failed', total_items: 0, dry_run: true });

    // post.published, to both webhooks (the terminal events are every webhook's default).
    const published = (await call('/posts', { body: { post: { body: 'Out it goes', post_accounts: [{ social_account_id: twitter }] } } })).json.post.id as number;
    expect((await call(`/posts/${published}/publishes`, { method: 'POST', body: {} })).status).toBe(202);
    await waitFor('post.published', forPost(published));

    // account.disconnected by the user.
    await admin(['account', 'disconnect', '--account', String(twitter), '--workspace', String(ws.workspaceId)]);
    const [gone] = await waitFor('account.disconnected', forAccount(twitter));
    expect(gone!.body.data).toMatchObject({ reason: 'by_user', platform: 'twitter' });

    // Every change once: one delivery per change (the receiver answered 200 to each, so no retry repeats it).
    const expected: Array<[string, (d: Delivery) => boolean]> = [
      ['account.connected', forAccount(twitter)],
      ['post.created', forPost(draft)],
      ['post.updated', forPost(draft)],
      ['post.scheduled', forPost(draft)],
      ['post.deleted', forPost(draft)],
      ['post.created', forPost(toApprove)],
      ['post.approved', forPost(toApprove)],
      ['post.scheduled', forPost(toApprove)],
      ['post.rejected', forPost(toReject)],
      ['site_push.consumed', (d) => d.body.data.site_id === site.site_id],
      ['post.created', (d) => (consumed!.body.data.post_ids as number[]).includes(d.body.post_id)],
      ['image_week_run.failed', (d) => d.body.data.image_week_run_id === run.json.image_week_run.id],
      ['post.published', forPost(published)],
      ['account.disconnected', forAccount(twitter)],
    ];
    for (const [kind, match] of expected) expect(delivered('/all', kind, match).length, `${kind} deliveries`).toBe(1);
    // A draft never scheduled is not announced as scheduled; the rejected post was never scheduled.
    expect(delivered('/all', 'post.scheduled', forPost(toReject))).toEqual([]);
    expect(delivered('/all', 'post.updated', forPost(draft))[0]!.body.data).toMatchObject({ status: 'scheduled', previous_status: 'draft', scheduled_at: patched.json.post.scheduled_at });

    // Signed with each webhook's secret; every body valid against the document.
    for (const d of at('/all')) {
      expect(signedWith(d, secrets.all!), `${d.body.event} signature`).toBe(true);
      expect(d.body.id).toBe(d.deliveryId);
      expect(check(d.body.event as string, d.body), `${d.body.event}: ${d.raw}`).toEqual([]);
    }
    // The default webhook: the terminal post events only.
    await eventually(
      () => at('/default').map((d) => d.body.event),
      (kinds) => kinds.includes('post.published'),
    );
    expect(new Set(at('/default').map((d) => d.body.event))).toEqual(new Set(['post.published']));
    for (const d of at('/default')) expect(signedWith(d, secrets.default!)).toBe(true);

    // The event log holds each delivered event under the same id, in order, with the same data.
    const log = await eventLog();
    const byId = new Map(log.map((e) => [e.id as string, e]));
    for (const d of at('/all')) {
      const entry = byId.get(d.body.event_id as string);
      expect(entry, `${d.body.event} ${d.body.event_id} in the log`).toBeDefined();
      expect(entry).toMatchObject({ event: d.body.event, data: d.body.data, occurred_at: d.body.occurred_at });
    }
    const terminal = at('/default').find((d) => d.body.event === 'post.published')!;
    expect(byId.get(terminal.body.event_id as string)).toMatchObject({ event: 'post.published', post_id: published });
    const cursors = log.map((e) => Number(e.cursor));
    expect(cursors).toEqual([...cursors].sort((a, b) => a - b));
    expect(new Set(log.map((e) => e.id)).size).toBe(log.length);
    // Filtered by kind.
    const deletions = await eventLog('post.deleted,account.disconnected');
    expect(deletions.map((e) => e.event).sort()).toEqual(['account.disconnected', 'post.deleted']);
  }, 300_000);

  it('GET /events: bad cursors, kinds and limits are named; a key without events:read is refused', async () => {
    for (const [query, field] of [
      ['after=abc', 'after'],
      ['kinds=post.exploded', 'kinds'],
      ['limit=0', 'limit'],
      ['limit=1001', 'limit'],
    ] as const) {
      const res = await call(`/events?${query}`);
      expect(res.status, res.text).toBe(422);
      expect(res.json.error.code).toBe('INVALID_PARAMETERS');
      expect(JSON.stringify(res.json.error.details)).toContain(field);
    }
    const narrow = await createWorkspace(stack, { tier: 'pro', scopes: ['posts:read'] });
    const refused = await stack.api('/events', { token: narrow.apiKey, localAddress: freshClientAddress() });
    expect(refused.status).toBe(403);
    expect(refused.json.error.code).toBe('INSUFFICIENT_SCOPE');
    // Another workspace's events are not in this one's log.
    const other = await createWorkspace(stack, { tier: 'pro' });
    const empty = await stack.api('/events', { token: other.apiKey, localAddress: freshClientAddress() });
    expect(empty.json).toEqual({ events: [], next_cursor: '0', has_more: false });
  });
});

describe('account health', () => {
  it('a passing refresh failure stays ok and is retried; a refused renewal is reauth_required with its event', async () => {
    // New tokens live 30 s: the refresh job (renewing a minute ahead) renews this account on every pass.
    await sandbox('/_sandbox/oauth/ttl', { seconds: 30 });
    const id = await connectOAuth('tumblr', uniqueName('health'));
    await waitFor('account.connected', forAccount(id));
    const account = async () => (await call(`/social_accounts/${id}`)).json.social_account as Record<string, any>;
    await eventually(account, (a) => a.last_refresh?.outcome === 'ok');

    await sandbox('/_sandbox/oauth/refuse', { platform: 'tumblr', answer: 'server_error', times: 20 });
    const failing = await eventually(account, (a) => a.last_refresh?.outcome === 'failed', 60_000, 100);
    expect(failing).toMatchObject({ health: 'ok', disconnected: false, disconnect_reason: null });
    expect(failing.last_refresh.error).toBeTruthy();

    // Queued after the passing failures: only a later retry meets it.
    await sandbox('/_sandbox/oauth/refuse', { platform: 'tumblr', answer: 'invalid_grant', times: 1 });
    const [event] = await waitFor('account.reauth_required', forAccount(id));
    expect(event!.body.data).toMatchObject({ platform: 'tumblr', reason: 'invalid_grant' });
    expect(check('account.reauth_required', event!.body)).toEqual([]);
    const refused = await account();
    expect(refused).toMatchObject({ health: 'reauth_required', disconnected: true, last_refresh: { outcome: 'refused' } });
    expect(refused.disconnected_reason).toContain('reconnect');
    const log = await eventLog('account.reauth_required');
    expect(log.filter((e) => e.data.social_account_id === id).map((e) => e.id)).toEqual([event!.body.event_id]);
    // Once: the account is not refreshed (nor announced) again while it waits for the user.
    expect(delivered('/all', 'account.reauth_required', forAccount(id))).toHaveLength(1);
    await sandbox('/_sandbox/oauth/ttl', { seconds: 3600 });
  }, 180_000);

  it('the dashboard: a webhook chooses its kinds (an unknown one named), and an account shows its health', async () => {
    const user = await inviteUser(stack, ws.workspaceId);
    const session = await signIn(stack, user.email, user.password, { localAddress: freshClientAddress() });
    const page = (await dash(stack, session, 'GET', '/webhooks')).json;
    expect(page.kinds).toEqual({ default: [...TERMINAL_EVENT_KINDS], lifecycle: [...LIFECYCLE_EVENT_KINDS] });
    const hook = page.webhooks.find((w: any) => w.url === `${receiver.url}/default`);
    const bad = await dash(stack, session, 'POST', `/webhooks/${hook.id}/events`, { events: ['post.deleted', 'post.exploded'] });
    expect(bad.status, bad.text).toBe(422);
    expect(JSON.stringify(bad.json.error.details)).toContain('events[1]');
    const chosen = await dash(stack, session, 'POST', `/webhooks/${hook.id}/events`, { events: ['post.deleted'] });
    expect(chosen.status, chosen.text).toBe(200);
    expect(chosen.json.webhook.events).toEqual(['post.deleted']);
    // From now on /default gets deletions (and no longer the terminal events it did not choose).
    const { socialAccountId } = await stack.accounts.connectSocialAccount({ workspaceId: ws.workspaceId, platform: 'mastodon', username: uniqueName('dash'), sandbox: true });
    const post = (await call('/posts', { body: { post: { body: 'Chosen', post_accounts: [{ social_account_id: socialAccountId }] } } })).json.post.id as number;
    expect((await call(`/posts/${post}`, { method: 'DELETE' })).status).toBe(200);
    const [deleted] = await eventually(
      () => delivered('/default', 'post.deleted', forPost(post)),
      (ds) => ds.length === 1,
    );
    expect(signedWith(deleted!, secrets.default!)).toBe(true);
    expect(delivered('/default', 'post.created', forPost(post))).toEqual([]);
    // Back to the default.
    expect((await dash(stack, session, 'POST', `/webhooks/${hook.id}/events`, { events: [] })).json.webhook.events).toEqual([...TERMINAL_EVENT_KINDS]);

    const accounts = (await dash(stack, session, 'GET', '/social-accounts')).json.social_accounts as Array<Record<string, any>>;
    expect(accounts.find((a) => a.id === socialAccountId)).toMatchObject({ health: 'ok', last_publish_error: null });
    const disconnected = accounts.find((a) => a.status === 'disconnected');
    expect(disconnected).toMatchObject({ health: expect.stringMatching(/^(disconnected|reauth_required)$/) });
  });

  it('warns once, ahead of its expiry, about a token that cannot be renewed (account.expiring), and the account reads expiring', async () => {
    // LinkedIn gives a refresh token on an account's first consent only: the second workspace's connection has none.
    const user = uniqueName('li');
    const first = await createWorkspace(stack, { tier: 'pro' });
    await connectOAuth('linkedin', user, first.workspaceId);
    await sandbox('/_sandbox/oauth/ttl', { seconds: 3 * 86_400 });
    const id = await connectOAuth('linkedin', user);
    await sandbox('/_sandbox/oauth/ttl', { seconds: 3600 });
    const [warned] = await waitFor('account.expiring', forAccount(id));
    expect(warned!.body.data).toMatchObject({ platform: 'linkedin', days_left: 2 });
    expect(check('account.expiring', warned!.body)).toEqual([]);
    const account = (await call(`/social_accounts/${id}`)).json.social_account;
    expect(account).toMatchObject({ health: 'expiring', disconnected: false, token_expires_at: warned!.body.data.token_expires_at });
    const list = (await call('/social_accounts')).json.social_accounts as Array<Record<string, any>>;
    expect(list.find((a) => a.id === id)).toMatchObject({ health: 'expiring' });
    // The job passes every 300 ms: still one warning for this expiry.
    await eventually(
      () => eventLog('account.expiring'),
      (log) => log.some((e) => e.data.social_account_id === id),
    );
    expect(delivered('/all', 'account.expiring', forAccount(id))).toHaveLength(1);
  }, 120_000);
});
