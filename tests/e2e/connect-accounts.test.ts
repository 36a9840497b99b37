import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { OAUTH_PLATFORMS } from '@spa/platforms';
import { createWorkspace, freshClientAddress, request, startStack, type HttpOptions, type Stack, type TestWorkspace } from '@spa/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpeg, mp4 } from '../support/media-files.js';

let stack: Stack;
let ws: TestWorkspace;
beforeAll(async () => {
  // The refresh job runs every 300 ms and renews tokens expiring within a minute.
  stack = await startStack({ publishing: true, accountsEnv: { TOKEN_REFRESH_INTERVAL_MS: '300', TOKEN_REFRESH_AHEAD_MS: '60000' } });
  ws = await createWorkspace(stack);
}, 120_000);
afterAll(async () => {
  await stack?.stop();
});

const call = (p: string, opts: HttpOptions = {}) => stack.api(p, { token: ws.apiKey, localAddress: freshClientAddress(), ...opts });
const sandbox = (p: string, body?: unknown) => request(stack.sandboxUrl!, p, body === undefined ? {} : { body });

/** Follows the authorization URL like a browser: the sandbox approves at once and redirects to our callback. */
async function authorize(url: string, extra: Record<string, string> = {}): Promise<{ callbackUrl: string }> {
  const u = new URL(url);
  for (const [k, v] of Object.entries(extra)) u.searchParams.set(k, v);
  const answer = await fetch(u, { redirect: 'manual' });
  expect(answer.status, await answer.clone().text()).toBe(302);
  return { callbackUrl: answer.headers.get('location')! };
}

/** `spa-admin account connect-url` prints the authorization URL. */
async function connectUrl(platform: string, workspaceId = ws.workspaceId): Promise<string> {
  const instance = platform === 'mastodon' ? ['--instance', `${stack.sandboxUrl}/mastodon`] : [];
  const out = await stack.admin(['account', 'connect-url', '--workspace', String(workspaceId), '--platform', platform, ...instance]);
  expect(out.code, out.stderr).toBe(0);
  return JSON.parse(out.stdout).authorization_url as string;
}

async function callback(url: string) {
  const answer = await fetch(url, { redirect: 'manual' });
  return { status: answer.status, html: await answer.text() };
}

const refreshesOf = async (platform: string, user: string) =>
  ((await sandbox('/_sandbox/oauth/refreshes')).json.refreshes as Array<{ platform: string; account: string }>).filter((r) => r.platform === platform && r.account === user).length;

async function connect(platform: string, user: string): Promise<number> {
  const { callbackUrl } = await authorize(await connectUrl(platform), { sandbox_user: user });
  const page = await callback(callbackUrl);
  expect(page.status, page.html).toBe(200);
  const id = Number(/social account (\d+)/.exec(page.html)?.[1]);
  expect(id).toBeGreaterThan(0);
  return id;
}

async function published(postId: number): Promise<{ status: string; post_accounts: Array<Record<string, unknown>> }> {
  let post = { status: '', post_accounts: [] as Array<Record<string, unknown>> };
  await expect
    .poll(
      async () => {
        post = (await call(`/posts/${postId}`)).json.post;
        return ['posted', 'failed', 'partial'].includes(post.status);
      },
      { timeout: 30_000, interval: 250 },
    )
    .toBe(true);
  return post;
}

const BODY: Record<string, Record<string, unknown>> = {};
async function publish(accountId: number, text: string) {
  const created = await call('/posts', { body: { post: { body: text, post_accounts: [{ social_account_id: accountId }], ...BODY } } });
  expect(created.status, created.text).toBe(201);
  const accepted = await call(`/posts/${created.json.post.id}/publishes`, { method: 'POST', body: {} });
  expect(accepted.status, accepted.text).toBe(202);
  return published(created.json.post.id);
}

// Platforms whose posts need media (youtube, instagram, pinterest, tiktok) publish after connect in their own cases below.
const TEXT_PLATFORMS = ['twitter', 'linkedin', 'threads', 'facebook', 'mastodon', 'tumblr', 'slack', 'google_business'];

describe('connect → list → publish → token expires → refreshed → publish', () => {
  it.each(TEXT_PLATFORMS)('%s', async (platform) => {
    const user = `u_${platform}`;
    const id = await connect(platform, user);
    const { social_account } = (await call(`/social_accounts/${id}`)).json;
    expect(social_account).toMatchObject({ id, platform, disconnected: false, disconnected_reason: null });
    expect(social_account.username).toBeTruthy();
    const first = await publish(id, `hello from ${platform} 1`);
    expect(first.status, JSON.stringify(first.post_accounts)).toBe('posted');
    const style = OAUTH_PLATFORMS[platform as 'twitter']!.refresh;
    if (style === 'long_lived_exchange') {
      // Graph tokens cannot be renewed once expired: the background job renews them before (token_expires_at within the minute ahead).
      await sandbox('/_sandbox/oauth/ttl', { seconds: 30 });
      const soon = await connect(platform, `${user}_soon`);
      await sandbox('/_sandbox/oauth/ttl', { seconds: 3600 });
      await expect.poll(() => refreshesOf(platform, `${user}_soon`), { timeout: 15_000, interval: 200 }).toBeGreaterThanOrEqual(1);
      await expect.poll(async () => Date.parse((await call(`/social_accounts/${soon}`)).json.social_account.token_expires_at) - Date.now(), { timeout: 5_000 }).toBeGreaterThan(60_000);
      // The tokens it replaced expire: publishing goes on with the renewed one (Facebook: with the page token).
      await sandbox('/_sandbox/oauth/expire', { platform, keep_newest: true });
      const second = await publish(soon, `hello from ${platform} 2`);
      expect(second.status, JSON.stringify(second.post_accounts)).toBe('posted');
    } else if (style !== 'none') {
      await sandbox('/_sandbox/oauth/expire', { platform });
      const second = await publish(id, `hello from ${platform} 2`);
      expect(second.status, JSON.stringify(second.post_accounts)).toBe('posted');
      expect(await refreshesOf(platform, user)).toBeGreaterThanOrEqual(1);
    }
  });

  it('discord: the channel webhook the OAuth connect stores is what publishing uses (Execute Webhook, wait=true)', async () => {
    const user = 'u_discord_hook';
    const id = await connect('discord', user);
    const { social_account } = (await call(`/social_accounts/${id}`)).json;
    expect(social_account).toMatchObject({ id, platform: 'discord', disconnected: false });
    const post = await publish(id, 'hello from discord');
    expect(post.status, JSON.stringify(post.post_accounts)).toBe('posted');
    const messageId = String(post.post_accounts[0]!.platform_post_id ?? '');
    expect(post.post_accounts[0]!.permalink).toMatch(new RegExp(`^https://discord\\.com/channels/guild-${user}/chan-${user}/\\d+$`));
    const requests = ((await sandbox('/_sandbox/requests?platform=discord')).json.requests as Array<{ method: string; path: string }>).filter((r) => r.path.includes(user));
    const creates = requests.filter((r) => r.method === 'POST');
    expect(creates.length).toBeGreaterThanOrEqual(1);
    // Every message went through the webhook (no Authorization needed); none through the bot endpoints.
    for (const r of creates) expect(r.path).toMatch(new RegExp(`/webhooks/wh-${user}/whtoken-${user}$`));
    const messages = ((await sandbox('/_sandbox/posts?platform=discord')).json.posts as Array<{ id: string; text: string; details: { channel_id: string } }>).filter(
      (p) => p.details.channel_id === `chan-${user}`,
    );
    expect(messages.map((m) => m.text)).toContain('hello from discord');
    if (messageId) expect(messages.map((m) => m.id)).toContain(messageId);
  });

  // Media-required platforms: connected by OAuth, then a post with the media each needs publishes through the stored tokens.
  it.each([
    ['instagram', 'image'],
    ['pinterest', 'image'],
    ['tiktok', 'video'],
    ['youtube', 'video'],
  ] as const)('%s: connects, lists, and publishes a post with its %s', async (platform, kind) => {
    const user = `u_${platform}_media`;
    const id = await connect(platform, user);
    const list = (await call('/social_accounts')).json.social_accounts as Array<{ id: number; platform: string }>;
    expect(list.find((a) => a.id === id)?.platform).toBe(platform);
    const file = kind === 'image' ? { content_type: 'image/jpeg', media: (await jpeg(640, 640)).toString('base64') } : { content_type: 'video/mp4', media: (await mp4(200_000)).toString('base64') };
    // The upload's platform only selects its limits; the publisher reads the bytes by r2_key for any target.
    const upload = await call('/media/uploads', { body: { platform: kind === 'image' ? platform : 'tiktok', ...file } });
    expect(upload.status, upload.text).toBe(201);
    const media = [{ r2_key: upload.json.r2_key, type: kind }];
    const text = `media after connect on ${platform}`;
    const created = await call('/posts', {
      body: {
        post: {
          body: text,
          post_contents: [
            { platform, body: text, metadata: { media, ...(platform === 'youtube' ? { title: 'After connect' } : {}), ...(platform === 'tiktok' ? { privacy_level: 'SELF_ONLY' } : {}) } },
          ],
          post_accounts: [{ social_account_id: id }],
        },
      },
    });
    expect(created.status, created.text).toBe(201);
    expect((await call(`/posts/${created.json.post.id}/publishes`, { method: 'POST', body: {} })).status).toBe(202);
    const post = await published(created.json.post.id);
    expect(post.status, JSON.stringify(post.post_accounts)).toBe('posted');
    expect(post.post_accounts[0]).toMatchObject({ social_account_id: id, platform_status: 'posted' });
    expect(post.post_accounts[0]!.permalink).toBeTruthy();
    // It reached the platform stand-in as the connected account (the sandbox knows accounts by the tokens it issued).
    const onPlatform = (await sandbox(`/_sandbox/posts?platform=${platform}`)).json.posts as Array<{ account: string }>;
    expect(onPlatform.filter((p) => p.account === user).length).toBeGreaterThanOrEqual(1);
  });
});

describe('connect-url', () => {
  it('names what is wrong: a credential platform, a missing instance, an unknown platform', async () => {
    const run = (...args: string[]) => stack.admin(['account', 'connect-url', '--workspace', String(ws.workspaceId), ...args]);
    const bluesky = await run('--platform', 'bluesky');
    expect(bluesky.code).toBe(1);
    expect(bluesky.stderr).toContain('INVALID_PARAMETERS');
    expect((await run('--platform', 'mastodon')).stderr).toContain('instance_url is required');
    expect((await run('--platform', 'myspace')).stderr).toContain('platform must be one of');
    const url = new URL(await connectUrl('twitter'));
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('redirect_uri')).toBe(`${stack.baseUrl}/oauth/twitter/callback`);
  });
});

describe('bad callbacks connect nothing and say why', () => {
  const count = async () => ((await call('/social_accounts')).json.social_accounts as unknown[]).length;

  it('replayed state, tampered state, other platform, access_denied, code already used, expired', async () => {
    const before = await count();
    const { callbackUrl } = await authorize(await connectUrl('twitter'), { sandbox_user: 'replay_user' });
    expect((await callback(callbackUrl)).status).toBe(200);
    const replay = await callback(callbackUrl);
    expect(replay.status).toBe(400);
    expect(replay.html).toContain('already used');

    const fresh = new URL((await authorize(await connectUrl('twitter'), { sandbox_user: 'tamper_user' })).callbackUrl);
    const state = fresh.searchParams.get('state')!;
    fresh.searchParams.set('state', `${state.split('.')[0]}.${Buffer.alloc(32, 1).toString('base64url')}`);
    const tampered = await callback(fresh.toString());
    expect(tampered.status).toBe(400);
    expect(tampered.html).toContain('tampered');

    const other = new URL((await authorize(await connectUrl('twitter'), { sandbox_user: 'cross_user' })).callbackUrl);
    other.pathname = '/oauth/linkedin/callback';
    const cross = await callback(other.toString());
    expect(cross.status).toBe(400);
    expect(cross.html).toContain('not linkedin');

    const denied = await callback((await authorize(await connectUrl('twitter'), { sandbox_deny: '1' })).callbackUrl);
    expect(denied.status).toBe(400);
    expect(denied.html).toContain('denied');

    // The same code with a second, valid state: the platform refuses the used code.
    const a = new URL((await authorize(await connectUrl('twitter'), { sandbox_user: 'code_user' })).callbackUrl);
    expect((await callback(a.toString())).status).toBe(200);
    const b = new URL((await authorize(await connectUrl('twitter'), { sandbox_user: 'code_user' })).callbackUrl);
    b.searchParams.set('code', a.searchParams.get('code')!);
    const reused = await callback(b.toString());
    expect(reused.status).toBe(400);
    expect(reused.html).toContain('refused the authorization code');

    const unknown = await callback(`${stack.baseUrl}/oauth/twitter/callback?state=nope.nope&code=x`);
    expect(unknown.status).toBe(400);
    expect(await count()).toBe(before + 2); // replay_user and code_user only
  });

  it('a Facebook page without its own token is not connected, and the page says which page to select', async () => {
    const before = await count();
    const page = await callback((await authorize(await connectUrl('facebook'), { sandbox_user: 'notoken_user' })).callbackUrl);
    expect(page.status).toBe(400);
    expect(page.html).toContain('notoken_user page');
    expect(page.html).toContain('select');
    expect(await count()).toBe(before);
  });
});

describe('reconnect and refresh failures', () => {
  it('reconnecting keeps the id, clears disconnected, and never stores an empty refresh token over a good one', async () => {
    const id = await connect('linkedin', 'again_user');
    // As the publisher does when a token is refused: the account is marked disconnected, its credentials kept.
    await stack.accounts.markDisconnected({ workspaceId: ws.workspaceId, socialAccountId: id });
    expect((await call(`/social_accounts/${id}`)).json.social_account.disconnected).toBe(true);
    // LinkedIn's refresh tokens are reusable: the sandbox gives none on the second consent.
    expect(await connect('linkedin', 'again_user')).toBe(id);
    const again = (await call(`/social_accounts/${id}`)).json.social_account;
    expect(again.disconnected).toBe(false);
    await sandbox('/_sandbox/oauth/expire', { platform: 'linkedin' });
    expect((await publish(id, 'after reconnect')).status).toBe('posted');
  });

  it('a transient refresh failure is retried, an invalid grant disconnects with the reason', async () => {
    const id = await connect('tumblr', 'refused_user');
    await sandbox('/_sandbox/oauth/expire', { platform: 'tumblr' });
    await sandbox('/_sandbox/oauth/refuse', { platform: 'tumblr', answer: 'server_error', times: 1 });
    const retried = await publish(id, 'after a 503 refresh');
    expect(retried.status, JSON.stringify(retried.post_accounts)).toBe('posted');
    expect((await call(`/social_accounts/${id}`)).json.social_account.disconnected).toBe(false);

    await sandbox('/_sandbox/oauth/expire', { platform: 'tumblr' });
    await sandbox('/_sandbox/oauth/refuse', { platform: 'tumblr', answer: 'invalid_grant', times: 1 });
    const failed = await publish(id, 'refused refresh');
    expect(failed.status).toBe('failed');
    expect(String(failed.post_accounts[0]?.platform_error)).toContain('reconnect');
    const account = (await call(`/social_accounts/${id}`)).json.social_account;
    expect(account.disconnected).toBe(true);
    expect(account.disconnected_reason).toContain('reconnect');
  });

  it('a Graph checkpoint disconnects with what the user must do', async () => {
    const id = await connect('threads', 'checkpoint_user');
    await sandbox('/_sandbox/oauth/expire', { platform: 'threads' });
    await sandbox('/_sandbox/oauth/refuse', { platform: 'threads', answer: 'checkpoint', times: 1 });
    const failed = await publish(id, 'checkpointed');
    expect(failed.status).toBe('failed');
    const account = (await call(`/social_accounts/${id}`)).json.social_account;
    expect(account.disconnected_reason).toContain('checkpoint');
  });

  it('replicas racing for one rotating refresh: one refresh, no lost token', async () => {
    const id = await connect('twitter', 'race_user');
    await sandbox('/_sandbox/oauth/expire', { platform: 'twitter' });
    const refreshesBefore = ((await sandbox('/_sandbox/oauth/refreshes')).json.refreshes as Array<{ account: string }>).filter((r) => r.account === 'race_user').length;
    const answers = await Promise.all(Array.from({ length: 6 }, () => stack.accounts.refreshSocialAccount({ socialAccountId: id, refusedTokenSha256: '' })));
    const refreshes = ((await sandbox('/_sandbox/oauth/refreshes')).json.refreshes as Array<{ account: string }>).filter((r) => r.account === 'race_user').length;
    expect(refreshes - refreshesBefore, JSON.stringify(answers.map((a) => [a.disconnected, a.reason]))).toBe(1);
    const tokens = new Set(answers.map((a) => a.account?.credentials.access_token));
    expect(tokens.size).toBe(1);
    expect(answers.every((a) => !a.disconnected)).toBe(true);
    expect((await publish(id, 'after the race')).status).toBe('posted');
  });
});

describe('no token in any API answer or process log', () => {
  it('searches the answers and the logs for every issued token', async () => {
    const id = await connect('twitter', 'secret_user');
    const list = (await call('/social_accounts')).text + (await call(`/social_accounts/${id}`)).text;
    expect(list).not.toMatch(/sbx_(at|rt|code)_/);
    expect(list).not.toMatch(/access_token|refresh_token/);
    const dir = process.env.TEST_PROCESS_LOG_DIR;
    const logs = stack.processes.map((p) => p.output()).join('\n') + (dir ? (await Promise.all((await readdir(dir)).map((f) => readFile(path.join(dir, f), 'utf8').catch(() => '')))).join('\n') : '');
    expect(logs).not.toMatch(/sbx_(at|rt)_/);
    expect(logs).not.toContain('sandbox-secret');
  });
});

describe('disconnecting', () => {
  it('revokes at the platform, deletes the credentials, and a scheduled post then fails with a clear error', async () => {
    const id = await connect('twitter', 'leaving_user');
    const out = await stack.admin(['account', 'disconnect', '--account', String(id)]);
    expect(JSON.parse(out.stdout)).toEqual({ social_account_id: id, disconnected: true, revoked_at_platform: true });
    const account = (await call(`/social_accounts/${id}`)).json.social_account;
    expect(account).toMatchObject({ disconnected: true, token_expires_at: null });
    const failed = await publish(id, 'after disconnect');
    expect(failed.status).toBe('failed');
    expect(String(failed.post_accounts[0]?.platform_error)).toContain('reconnect');
    expect(await sandboxPostsOf('twitter', 'leaving_user')).toHaveLength(0);
  });
});

const sandboxPostsOf = async (platform: string, account: string) =>
  ((await sandbox(`/_sandbox/posts?platform=${platform}`)).json.posts as Array<{ account: string }>).filter((p) => p.account === account);
