import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PlatformStatus, PostsServiceClient } from '@spa/contracts/posts/v1/posts';
import { createClient } from '@spa/grpc';
import { createWorkspace, startStack, type Stack } from '@spa/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, screenshot } from '../support/browser.js';
import { dash, inviteUser, signIn } from '../support/dashboard.js';

/**
 * The dashboard's edge states in Chromium against the real stack: a session ended in another tab, a load
 * that failed, a double click, an error on a phone, confirmations, a platform's error on the Posts page,
 * and compressed assets.
 */
let stack: Stack;
let browser: Browser;
let receiver: http.Server;
let receiverUrl: string;
beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  stack = await startStack({ webhooks: true });
  browser = await launchChromium();
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  receiver?.closeAllConnections();
  await new Promise((resolve) => receiver?.close(resolve));
});

const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 30_000, interval: 250 });
const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name }).click();
const PHONE = { width: 390, height: 844 };

/** A member of a new workspace, signed in on a new page of `context` (or a new context). */
async function signedIn(opts: { context?: BrowserContext; viewport?: { width: number; height: number } } = {}) {
  const ws = await createWorkspace(stack, { tier: 'pro' });
  const user = await inviteUser(stack, ws.workspaceId);
  const context = opts.context ?? (await browser.newContext({ viewport: opts.viewport ?? { width: 1280, height: 900 } }));
  const page = await context.newPage();
  await page.goto(`${stack.baseUrl}/dashboard/`);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await poll(() => page.getByRole('heading', { name: 'API key', level: 1 }).isVisible()).toBe(true);
  return { ws, user, context, page, http: await signIn(stack, user.email, user.password) };
}

/** True when the element is drawn inside the page's viewport (not above or below the screen). */
async function onScreen(page: Page, locator: ReturnType<Page['locator']>): Promise<boolean> {
  const box = await locator.boundingBox();
  const size = page.viewportSize()!;
  return !!box && box.width > 20 && box.y >= 0 && box.y + box.height <= size.height;
}

describe('dashboard edge states in Chromium', () => {
  it('serves its scripts and styles compressed', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const assets: Array<{ url: string; encoding: string | undefined }> = [];
    page.on('response', (r) => {
      if (/\/dashboard\/assets\/.+\.(js|css)$/.test(r.url())) assets.push({ url: r.url(), encoding: r.headers()['content-encoding'] });
    });
    await page.goto(`${stack.baseUrl}/dashboard/`);
    await poll(() => page.getByRole('heading', { name: 'Sign in to the dashboard' }).isVisible()).toBe(true);
    // A first visit is not an ended session.
    expect(await page.getByRole('status').count()).toBe(0);
    expect(assets.map((a) => a.url.split('.').pop()).sort()).toEqual(['css', 'js']);
    for (const a of assets) expect(['br', 'gzip'], a.url).toContain(a.encoding);
    await context.close();
  });

  it('follows a sign-out in another tab at once, and after a session ended elsewhere leads to the sign-in form and back to the page', async () => {
    const { context, page: first, user } = await signedIn();
    const second = await context.newPage();
    await second.goto(`${stack.baseUrl}/dashboard/webhooks`);
    await poll(() => second.getByRole('heading', { name: 'Webhooks', level: 1 }).isVisible()).toBe(true);
    await first.getByRole('button', { name: 'Sign out', exact: true }).click();
    await poll(() => first.getByRole('heading', { name: 'Sign in to the dashboard' }).isVisible()).toBe(true);
    await poll(() => second.getByRole('heading', { name: 'Sign in to the dashboard' }).isVisible()).toBe(true);
    expect(await second.getByText('Loading…').count()).toBe(0);

    // Signed in again here; then signed out everywhere from another device: the next page this tab opens asks to sign in.
    await second.getByLabel('Email').fill(user.email);
    await second.getByLabel('Password').fill(user.password);
    await second.getByRole('button', { name: 'Sign in' }).click();
    await poll(() => second.getByRole('heading', { name: 'Webhooks', level: 1 }).isVisible()).toBe(true);
    await poll(() => first.getByRole('heading', { name: 'API key', level: 1 }).isVisible()).toBe(true);
    const device = await signIn(stack, user.email, user.password);
    expect((await dash(stack, device, 'POST', '/session/sign-out-everywhere')).status).toBe(200);

    await nav(second, 'Sites');
    await poll(() => second.getByRole('heading', { name: 'Sign in to the dashboard' }).isVisible()).toBe(true);
    expect(await second.getByText('Loading…').count()).toBe(0);
    expect(await second.getByRole('status').filter({ hasText: 'session has ended' }).count()).toBe(1);
    await screenshot(second, 'states-01-session-ended');
    await second.getByLabel('Email').fill(user.email);
    await second.getByLabel('Password').fill(user.password);
    await second.getByRole('button', { name: 'Sign in' }).click();
    await poll(() => second.getByRole('heading', { name: 'Sites', level: 1 }).isVisible()).toBe(true);
    expect(new URL(second.url()).pathname).toBe('/dashboard/sites');
    await poll(() => second.getByText('No sites yet.').isVisible()).toBe(true);
    await context.close();
  });

  it('offers to try again when a page could not load', async () => {
    const { context, page } = await signedIn();
    await page.route('**/dashboard/api/billing', (route) => route.abort('connectionrefused'));
    await nav(page, 'Billing');
    const retry = page.getByRole('button', { name: 'Try again' });
    await poll(() => retry.isVisible()).toBe(true);
    expect(await page.getByRole('alert').textContent()).toContain('could not be reached');
    await page.unroute('**/dashboard/api/billing');
    await retry.click();
    await poll(() => page.getByText('of 500 used').isVisible()).toBe(true);
    expect(await retry.count()).toBe(0);
    await context.close();
  });

  it('sends once when a sending button is clicked twice', async () => {
    const { context, page, http } = await signedIn();
    await nav(page, 'Sites');
    await page.getByLabel('Name').fill('Twice blog');
    await page.getByLabel('URL').fill('https://twice.example.com');
    await page.getByRole('button', { name: 'Register site' }).dblclick();
    expect((await page.getByTestId('secret').textContent({ timeout: 15_000 }))?.trim()).toMatch(/^st_live_/);
    await page.waitForLoadState('networkidle');
    expect((await dash(stack, http, 'GET', '/sites')).json.sites).toHaveLength(1);

    await nav(page, 'Webhooks');
    await page.getByLabel('Endpoint URL (https)').fill('http://127.0.0.1:9/hooks');
    await page.getByRole('button', { name: 'Add webhook' }).dblclick();
    await poll(() => page.getByRole('button', { name: 'Send test event' }).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Send test event' }).dblclick();
    await page.waitForLoadState('networkidle');
    const { webhooks } = (await dash(stack, http, 'GET', '/webhooks')).json;
    expect(webhooks).toHaveLength(1);
    await poll(async () => (await dash(stack, http, 'GET', `/webhooks/${webhooks[0].id}/deliveries`)).json.deliveries.length).toBe(1);
    await context.close();
  });

  it('on a phone, shows an error beside the button that failed', async () => {
    const { context, page, http } = await signedIn({ viewport: PHONE });
    const hook = (await dash(stack, http, 'POST', '/webhooks', { url: 'http://127.0.0.1:9/hooks' })).json.webhook;
    for (let i = 0; i < 8; i++) expect((await dash(stack, http, 'POST', `/webhooks/${hook.id}/test`)).status).toBe(201);
    await nav(page, 'Webhooks');
    await page.getByRole('button', { name: 'Show delivery log' }).click();
    await poll(() => page.locator('tr[data-delivery]').count()).toBe(8);
    await page.route('**/redeliver', (route) =>
      route.fulfill({ status: 409, contentType: 'application/json', body: JSON.stringify({ error: { code: 'INVALID_STATE', message: 'This delivery is being retried already' } }) }),
    );
    await page
      .locator('tr[data-delivery]')
      .last()
      .getByRole('button', { name: /Redeliver/ })
      .click();
    const alert = page.getByRole('alert').filter({ hasText: 'This delivery is being retried already' });
    await poll(() => alert.count()).toBe(1);
    await screenshot(page, 'states-02-phone-error');
    expect(await onScreen(page, alert)).toBe(true);
    await context.close();
  });

  it("confirms test events, redelivery and connects where the user acted, and never calls the user's own action an operator's", async () => {
    const { context, page } = await signedIn();
    page.on('dialog', (d) => void d.accept());
    await nav(page, 'Webhooks');
    await page.getByLabel('Endpoint URL (https)').fill(receiverUrl);
    await page.getByRole('button', { name: 'Add webhook' }).click();
    await page.getByRole('button', { name: 'Send test event' }).click();
    const sent = page.getByRole('status').filter({ hasText: 'Test event sent' });
    await poll(() => sent.count()).toBe(1);
    expect(await onScreen(page, sent)).toBe(true);
    await page.getByRole('button', { name: 'Show delivery log' }).click();
    const row = page.locator('tr[data-delivery]').first();
    await poll(async () => {
      await page.getByRole('button', { name: 'Refresh' }).click();
      return row.textContent();
    }).toContain('succeeded');
    await row.getByRole('button', { name: /Redeliver/ }).click();
    const queued = page.getByRole('status').filter({ hasText: 'queued again' });
    await poll(() => queued.count()).toBe(1);
    expect(await onScreen(page, queued)).toBe(true);
    await page.getByRole('button', { name: 'Disable' }).click();
    await poll(() => page.getByRole('list', { name: 'Webhooks' }).textContent()).toContain('disabled');
    expect(await page.getByRole('list', { name: 'Webhooks' }).textContent()).not.toContain('operator');

    await nav(page, 'Connected accounts');
    await page.getByLabel('Platform').selectOption('mastodon');
    await page.getByLabel('Username').fill('confirm.me');
    await page.getByRole('button', { name: 'Connect sandbox account' }).click();
    const connected = page.getByRole('status').filter({ hasText: 'Connected' });
    await poll(() => connected.count()).toBe(1);
    expect(await onScreen(page, connected)).toBe(true);
    await page.getByRole('button', { name: /Disconnect Mastodon/ }).click();
    const list = page.getByRole('list', { name: 'Connected accounts' });
    await poll(() => list.textContent()).toContain('disconnected');
    expect(await list.textContent()).not.toContain('operator');
    await screenshot(page, 'states-03-confirmations');
    await context.close();
  });

  it("shows a platform's refusal in words, and Reconnect for an account whose connection ended", async () => {
    const { ws, context, page } = await signedIn();
    const x = (await stack.accounts.connectSocialAccount({ workspaceId: ws.workspaceId, platform: 'twitter', username: 'words', sandbox: true })).socialAccountId;
    const bsky = (await stack.accounts.connectSocialAccount({ workspaceId: ws.workspaceId, platform: 'bluesky', username: 'expired.bsky.social', sandbox: true })).socialAccountId;
    const created = await stack.api('/posts', { token: ws.apiKey, body: { post: { body: 'Refused twice', post_accounts: [{ social_account_id: x }, { social_account_id: bsky }] } } });
    expect(created.status, created.text).toBe(201);
    const posts = createClient(PostsServiceClient, stack.postsAddr);
    const postId = created.json.post.id as number;
    await posts.publishPost({ workspaceId: ws.workspaceId, postId, toNextSlot: false });
    await poll(async () => (await posts.getPost({ workspaceId: ws.workspaceId, postId })).post?.status).toBe('publishing');
    const targets = (await posts.getPost({ workspaceId: ws.workspaceId, postId })).post!.postAccounts;
    const failed = (id: number, error: string, disconnected: boolean) => ({
      postAccountId: id,
      platformStatus: 'failed',
      state: PlatformStatus.PLATFORM_STATUS_FAILED,
      platformError: error,
      disconnected,
    });
    await posts.recordPublishResults({
      workspaceId: ws.workspaceId,
      postId,
      results: [
        failed(
          targets.find((t) => t.socialAccountId === x)!.id,
          'POST /2/tweets answered 403: {"detail":"You are not allowed to create a Tweet with duplicate content.","type":"about:blank","title":"Forbidden","status":403}',
          false,
        ),
        failed(targets.find((t) => t.socialAccountId === bsky)!.id, 'POST /xrpc/com.atproto.repo.createRecord answered 401: {"error":"ExpiredToken","message":"Token has expired"}', true),
      ],
    });
    await stack.accounts.markDisconnected({ workspaceId: ws.workspaceId, socialAccountId: bsky });

    await nav(page, 'Posts');
    const targetsList = page.getByRole('list', { name: `Targets of post ${postId}` });
    await poll(() => targetsList.textContent()).toContain('You are not allowed to create a Tweet with duplicate content.');
    const row = page.locator('li.post').filter({ hasText: 'Refused twice' });
    const shown = await row.innerText();
    expect(shown).not.toContain('{"');
    expect(await targetsList.innerText()).toContain('X (Twitter) refused the post (403): You are not allowed to create a Tweet with duplicate content.');
    expect(await targetsList.innerText()).toContain('Bluesky no longer accepts this connection (401): Token has expired');
    await screenshot(page, 'states-04-posts-errors');
    const reconnect = targetsList.getByRole('link', { name: /Reconnect Bluesky/ });
    expect(await reconnect.count()).toBe(1);
    expect(await targetsList.getByRole('link', { name: /Reconnect X/ }).count()).toBe(0);
    await reconnect.click();
    await poll(() => page.getByRole('heading', { name: 'Connected accounts', level: 1 }).isVisible()).toBe(true);
    // The account's way to connect, ready: here the sandbox form, filled in with it.
    const form = page.getByRole('form', { name: 'Connect a sandbox account' });
    await poll(() => form.getByLabel('Username').inputValue()).toBe('expired.bsky.social');
    expect(await form.getByLabel('Platform').inputValue()).toBe('bluesky');
    expect(await form.getByLabel('Username').evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    await context.close();
  });
});
