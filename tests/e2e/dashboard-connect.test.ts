import { createWorkspace, request, type Stack } from '@spa/testing';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, screenshot } from '../support/browser.js';
import { dash, inviteUser, signIn } from '../support/dashboard.js';
import { sharedStack } from '../support/shared-stack.js';

/**
 * The billing page's Quote Week card (runs used of the plan's monthly limit, recent runs) and the accounts page's connect buttons: the start endpoint (session + CSRF) begins the OAuth flow for the
 * session's workspace, the browser goes through the sandbox's authorization server and the public callback,
 * and comes back to the page with the account connected; a Telegram bot connects through its form.
 */
let stack: Stack;
let browser: Browser;
beforeAll(async () => {
  stack = await sharedStack();
  browser = await launchChromium();
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 60_000, interval: 500 });

describe('connect buttons', () => {
  it('the start endpoint needs the session, its CSRF token and the dashboard origin; bad platforms are named', async () => {
    const ws = await createWorkspace(stack);
    const user = await inviteUser(stack, ws.workspaceId);
    const s = await signIn(stack, user.email, user.password);
    const noSession = await stack.http('/dashboard/api/social-accounts/connect', { method: 'POST', body: { platform: 'twitter' } });
    expect(noSession.status).toBe(401);
    const noToken = await stack.http('/dashboard/api/social-accounts/connect', { method: 'POST', body: { platform: 'twitter' }, headers: { cookie: s.cookie } });
    expect(noToken.status).toBe(403);
    expect(noToken.json.error.code).toBe('CSRF_REJECTED');
    const otherOrigin = await dash(stack, s, 'POST', '/social-accounts/connect', { platform: 'twitter' }, { origin: 'https://evil.example' });
    expect(otherOrigin.json.error.code).toBe('CSRF_REJECTED');
    const unknown = await dash(stack, s, 'POST', '/social-accounts/connect', { platform: 'myspace' });
    expect(unknown.status).toBe(422);
    expect(unknown.json.error.message).toContain('platform');
    const credentials = await dash(stack, s, 'POST', '/social-accounts/connect', { platform: 'telegram' });
    expect(credentials.status).toBe(422);
    expect(credentials.json.error.message).toContain('credentials, not OAuth');
    const mastodon = await dash(stack, s, 'POST', '/social-accounts/connect', { platform: 'mastodon' });
    expect(mastodon.status).toBe(422);
    expect(mastodon.json.error.message).toContain('instance_url');

    const ok = await dash(stack, s, 'POST', '/social-accounts/connect', { platform: 'linkedin' });
    expect(ok.status, ok.text).toBe(201);
    const url = new URL(ok.json.authorization_url as string);
    expect(url.searchParams.get('redirect_uri')).toBe(`${stack.baseUrl}/oauth/linkedin/callback`);
    // The state is the session workspace's and single-use: the first callback connects, a replay connects nothing.
    const approved = await fetch(url, { redirect: 'manual' });
    const callback = approved.headers.get('location')!;
    expect((await fetch(callback)).status).toBe(200);
    const replay = await fetch(callback);
    expect(replay.status).toBe(400);
    expect(await replay.text()).toContain('already used');
    const { socialAccounts } = await stack.accounts.listSocialAccounts({ workspaceId: ws.workspaceId, ids: [] });
    expect(socialAccounts.map((a) => a.platform)).toEqual(['linkedin']);
  });

  it('in Chromium: clicks Connect X, approves at the sandbox, comes back connected; connects a Telegram bot by its form', async () => {
    const ws = await createWorkspace(stack);
    const user = await inviteUser(stack, ws.workspaceId);
    await request(stack.sandboxUrl!, '/_sandbox/telegram/chats', { body: { id: -1003000000001, type: 'channel', title: 'Dashboard channel', username: 'dashchannel' } });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${stack.baseUrl}/dashboard/`);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await poll(() => page.getByRole('heading', { name: 'API key', level: 1 }).isVisible()).toBe(true);
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Connected accounts' }).click();
    await poll(() => page.getByRole('button', { name: 'Connect X (Twitter)' }).isVisible()).toBe(true);
    await screenshot(page, 'connect-01-buttons');

    // The sandbox's authorize page approves at once and redirects to the gateway's callback.
    await page.getByRole('button', { name: 'Connect X (Twitter)' }).click();
    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('twitter account connected');
    expect(page.url()).toContain(`${stack.baseUrl}/oauth/twitter/callback?`);
    await screenshot(page, 'connect-02-callback');
    await page.getByRole('link', { name: 'Back to the dashboard' }).click();
    await poll(() => page.getByRole('list', { name: 'Connected accounts' }).textContent()).toContain('X (Twitter)');
    expect(await page.getByRole('list', { name: 'Connected accounts' }).textContent()).toContain('connected');

    // A wrong bot token: the page names the field; then the right one connects.
    await page.getByLabel('Bot token').fill('123456:wrong-token');
    await page.getByLabel('Chat').fill('@dashchannel');
    await page.getByRole('button', { name: 'Connect Telegram' }).click();
    await poll(() => page.getByRole('alert').textContent()).toContain('bot_token');
    await page.getByLabel('Bot token').fill('sandbox-dashbot');
    await page.getByRole('button', { name: 'Connect Telegram' }).click();
    await poll(() => page.getByRole('list', { name: 'Connected accounts' }).textContent()).toContain('@dashchannel');
    await screenshot(page, 'connect-03-connected');
    const { socialAccounts } = await stack.accounts.listSocialAccounts({ workspaceId: ws.workspaceId, ids: [] });
    expect(socialAccounts.map((a) => a.platform).sort()).toEqual(['telegram', 'twitter']);
    await context.close();
  });
});

describe('billing page', () => {
  it('in Chromium: shows Quote Week runs used this month of the plan limit (dry runs not counted) and the recent runs', async () => {
    const ws = await createWorkspace(stack, { tier: 'starter' });
    const user = await inviteUser(stack, ws.workspaceId);
    const { socialAccountId: ig } = await stack.accounts.connectSocialAccount({ workspaceId: ws.workspaceId, platform: 'instagram', username: 'billing_ig', sandbox: true });
    const body = { topic: 'billing grit', platform_config: { instagram: { social_account_id: ig } }, cutoff_days: 1, schedule_mode: 'draft' };
    const real = await stack.api('/image_week_runs', { method: 'POST', token: ws.apiKey, body });
    expect(real.status, real.text).toBe(201);
    await stack.api(`/image_week_runs/${real.json.image_week_run.id}/cancel`, { method: 'POST', token: ws.apiKey });
    const dry = await stack.api('/image_week_runs', { method: 'POST', token: ws.apiKey, body: { ...body, topic: 'billing rehearsal', dry_run: true } });
    expect(dry.status, dry.text).toBe(201);

    const s = await signIn(stack, user.email, user.password);
    const billing = await dash(stack, s, 'GET', '/billing');
    expect(billing.status, billing.text).toBe(200);
    expect(billing.json.quote_week).toMatchObject({ runs_used: 1, runs_per_month: 4, runs_left: 3, total_runs: 2 });
    expect(billing.json.quote_week.month).toMatch(/^\d{4}-\d{2}$/);
    expect(billing.json.quote_week.recent_runs.map((r: { topic: string; dry_run: boolean }) => [r.topic, r.dry_run]).sort()).toEqual([
      ['billing grit', false],
      ['billing rehearsal', true],
    ]);

    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(`${stack.baseUrl}/dashboard/`);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await poll(() => page.getByRole('heading', { name: 'API key', level: 1 }).isVisible()).toBe(true);
    await page.goto(`${stack.baseUrl}/dashboard/billing`);
    await poll(() => page.getByText(/1 of 4 runs used in \d{4}-\d{2} · 3 left/).isVisible()).toBe(true);
    const runs = page.getByRole('list', { name: 'Recent Quote Week runs' });
    await poll(() => runs.textContent()).toContain('billing grit');
    expect(await runs.textContent()).toContain('billing rehearsal');
    expect(await runs.textContent()).toContain('dry run');
    await screenshot(page, 'billing-quote-week-phone');
    await context.close();
  });
});
