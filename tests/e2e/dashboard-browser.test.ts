import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWorkspace, type Stack } from '@spa/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, screenshot } from '../support/browser.js';
import { inviteUser } from '../support/dashboard.js';
import { sharedStack } from '../support/shared-stack.js';

/**
 * The dashboard in a real browser (Debian's Chromium driven by playwright-core) against the real stack:
 * sign in, create a key and use it, a webhook with a test delivery redelivered, a sandbox account, a site,
 * the read-only pages, sign out. Each page's screenshot lands in .run/dashboard-screenshots.
 */
let stack: Stack;
let browser: Browser;
let receiver: http.Server;
let receiverUrl: string;
const hits: Array<{ event: string; id: string }> = [];

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { event?: string; id?: string };
      hits.push({ event: body.event ?? '', id: body.id ?? '' });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  stack = await sharedStack();
  browser = await launchChromium();
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  receiver?.closeAllConnections();
  await new Promise((resolve) => receiver?.close(resolve));
});

/** Waits on a condition (the machine may be loaded: generous, but never a fixed sleep). */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 30_000, interval: 250 });
const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name }).click();

describe('dashboard in Chromium', () => {
  it('signs in, creates and uses a key, manages a webhook and redelivers, connects a sandbox account, registers a site, signs out', async () => {
    const ws = await createWorkspace(stack, { tier: 'pro' });
    await stack.accounts.revokeApiKey({ workspaceId: ws.workspaceId });
    const user = await inviteUser(stack, ws.workspaceId);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const consoleErrors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });

    // Sign in (a wrong password first).
    await page.goto(`${stack.baseUrl}/dashboard/`);
    await poll(() => page.getByRole('heading', { name: 'Sign in to the dashboard' }).isVisible()).toBe(true);
    await screenshot(page, '01-sign-in');
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await poll(() => page.getByRole('alert').textContent()).toContain('Wrong email or password');
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await poll(() => page.getByRole('heading', { name: 'API key', level: 1 }).isVisible()).toBe(true);
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === 'spa_dashboard_session')).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/dashboard' });

    // API key: choose scopes, create, the secret once, then use it against the API.
    await page.getByLabel('posts:read').check();
    await page.getByLabel('posts:write').check();
    await screenshot(page, '02-api-key-create');
    await page.getByRole('button', { name: 'Create API key' }).click();
    const secret = (await page.getByTestId('secret').textContent({ timeout: 15_000 }))?.trim() ?? '';
    expect(secret).toMatch(/^sk_live_/);
    await screenshot(page, '03-api-key-created');
    const api = await stack.api('/posts', { token: secret });
    expect(api.status).toBe(200);
    const scoped = await stack.api('/social_accounts', { token: secret });
    expect(scoped.status).toBe(403);
    await page.reload();
    await poll(() => page.locator('dl.facts').textContent()).toContain(secret.slice(0, 12));
    await poll(async () => {
      await page.reload();
      return page.locator('dl.facts').textContent();
    }).not.toContain('Not used yet');
    expect(await page.getByTestId('secret').count()).toBe(0);
    await screenshot(page, '04-api-key-active');

    // Webhooks: create (secret once), send a test event, see it in the log, redeliver it.
    await nav(page, 'Webhooks');
    await page.getByLabel('Endpoint URL (https)').fill(receiverUrl);
    await page.getByRole('button', { name: 'Add webhook' }).click();
    expect((await page.getByTestId('secret').textContent({ timeout: 15_000 }))?.trim()).toMatch(/\S{16,}/);
    await page.getByRole('button', { name: 'Send test event' }).click();
    await poll(() => hits.filter((h) => h.event === 'webhook.test').length).toBe(1);
    await page.getByRole('button', { name: 'Show delivery log' }).click();
    const row = page.locator('tr[data-delivery]').first();
    await poll(async () => {
      await page.getByRole('button', { name: 'Refresh' }).click();
      return row.textContent();
    }).toContain('succeeded');
    await screenshot(page, '05-webhooks');
    await row.getByRole('button', { name: /Redeliver/ }).click();
    await poll(() => hits.filter((h) => h.event === 'webhook.test').length).toBe(2);
    expect(hits[1]!.id).toBe(hits[0]!.id);
    await page.getByLabel('Status').selectOption('failed');
    await page.getByRole('button', { name: 'Filter' }).click();
    await poll(() => page.getByText('No deliveries match these filters').isVisible()).toBe(true);

    // Connected accounts: a sandbox account.
    await nav(page, 'Connected accounts');
    await page.getByLabel('Platform').selectOption('bluesky');
    await page.getByLabel('Username').fill('dash.sandbox');
    await page.getByRole('button', { name: 'Connect sandbox account' }).click();
    await poll(() => page.getByRole('list', { name: 'Connected accounts' }).textContent()).toContain('@dash.sandbox');
    await screenshot(page, '06-accounts');
    const { socialAccounts } = await stack.accounts.listSocialAccounts({ workspaceId: ws.workspaceId, ids: [] });
    expect(socialAccounts).toMatchObject([{ platform: 'bluesky', username: 'dash.sandbox', sandbox: true }]);

    // Sites: the token shown once.
    await nav(page, 'Sites');
    await page.getByLabel('Name').fill('Company blog');
    await page.getByLabel('URL').fill('https://blog.example.com');
    await page.getByLabel('CMS').selectOption('ghost');
    await page.getByRole('button', { name: 'Register site' }).click();
    expect((await page.getByTestId('secret').textContent({ timeout: 15_000 }))?.trim()).toMatch(/^st_live_/);
    await poll(() => page.getByRole('list', { name: 'Sites' }).textContent()).toContain('CMS ghost');
    await screenshot(page, '07-sites');

    // Posts and billing (read only): a post scheduled with the new key shows in the queue.
    const created = await stack.api('/posts', {
      token: secret,
      body: { post: { body: 'Hello from the dashboard test', scheduled_at: new Date(Date.now() + 2 * 86_400_000).toISOString(), post_accounts: [{ social_account_id: socialAccounts[0]!.id }] } },
    });
    expect(created.status, created.text).toBe(201);
    await nav(page, 'Posts');
    await poll(() => page.getByRole('heading', { name: 'Queue (1)' }).isVisible()).toBe(true);
    await poll(() => page.getByText('Hello from the dashboard test').isVisible()).toBe(true);
    await screenshot(page, '08-posts');
    await nav(page, 'Billing');
    await poll(() => page.getByText('of 500 used').isVisible()).toBe(true);
    await screenshot(page, '09-billing');

    // On a phone.
    await page.setViewportSize({ width: 390, height: 844 });
    await nav(page, 'Webhooks');
    await page.getByRole('button', { name: 'Show delivery log' }).click();
    await poll(() => page.locator('tr[data-delivery]').count()).toBeGreaterThan(0);
    await screenshot(page, '10-phone-webhooks');
    await page.setViewportSize({ width: 1280, height: 900 });

    // Sign out: the session ends on the server too.
    const sessionCookie = (await context.cookies()).find((c) => c.name === 'spa_dashboard_session')!;
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await poll(() => page.getByRole('heading', { name: 'Sign in to the dashboard' }).isVisible()).toBe(true);
    const after = await stack.http('/dashboard/api/session', { headers: { cookie: `${sessionCookie.name}=${sessionCookie.value}` } });
    expect(after.status).toBe(401);
    expect(consoleErrors.filter((e) => !e.includes('401'))).toEqual([]);
    await context.close();
  });
});
