import { createWorkspace, type Stack } from '@spa/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, screenshot } from '../support/browser.js';
import { dash, inviteUser, signIn } from '../support/dashboard.js';
import { sharedStack } from '../support/shared-stack.js';

/**
 * The dashboard's Sites page in a real browser against the real stack: register a site, manage its rules
 * (add, disable, enable, remove), then an article pushed with the site's token shows among its recent
 * pushes once its post is made. The rule endpoints are also checked at the HTTP level (tenancy, bad input).
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

const poll = <T>(fn: () => T | Promise<T>, timeout = 30_000) => expect.poll(fn, { timeout, interval: 250 });
const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name }).click();

describe('dashboard Sites page in Chromium', () => {
  it("registers a site, manages its rules, and shows the site's pushes from real data", async () => {
    const ws = await createWorkspace(stack, { tier: 'pro' });
    await stack.accounts.connectSocialAccount({ workspaceId: ws.workspaceId, platform: 'mastodon', username: 'blog', sandbox: true });
    const user = await inviteUser(stack, ws.workspaceId);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const consoleErrors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    await page.goto(`${stack.baseUrl}/dashboard/`);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await poll(() => page.getByRole('heading', { name: 'API key', level: 1 }).isVisible()).toBe(true);

    await nav(page, 'Sites');
    await page.getByLabel('Name').fill('Tea blog');
    await page.getByLabel('URL').fill('https://tea.example.com');
    await page.getByLabel('CMS').selectOption('wordpress');
    await page.getByRole('button', { name: 'Register site' }).click();
    const token = (await page.getByTestId('secret').textContent({ timeout: 15_000 }))!.trim();
    expect(token).toMatch(/^st_live_/);
    await poll(() => page.getByText('No rules: pushed articles make no posts').isVisible()).toBe(true);

    // Rules: add two, disable and enable one, remove the other.
    const form = page.getByRole('form', { name: 'Add a rule to Tea blog' });
    const rules = page.getByRole('list', { name: 'Rules of Tea blog' });
    await form.getByLabel('Platform').selectOption('mastodon');
    await form.getByRole('button', { name: 'Add rule' }).click();
    await poll(() => rules.textContent()).toContain('mastodon');
    await form.getByLabel('Platform').selectOption('twitter');
    await form.getByLabel('Make').selectOption('scheduled');
    await form.getByRole('button', { name: 'Add rule' }).click();
    await poll(() => rules.textContent()).toContain('as next free slot');
    await page.getByRole('button', { name: 'Disable the mastodon rule of Tea blog' }).click();
    await poll(() => page.locator('li[data-rule]', { hasText: 'mastodon' }).textContent()).toContain('disabled');
    await page.getByRole('button', { name: 'Enable the mastodon rule of Tea blog' }).click();
    await poll(() => page.locator('li[data-rule]', { hasText: 'mastodon' }).textContent()).toContain('enabled');
    await page.getByRole('button', { name: 'Remove the twitter rule of Tea blog' }).click();
    await poll(() => page.locator('li[data-rule]').count()).toBe(1);
    // A platform that needs media is refused with the service's reason.
    await form.getByLabel('Platform').selectOption('instagram');
    await form.getByRole('button', { name: 'Add rule' }).click();
    await poll(() => page.getByRole('alert').first().textContent()).toContain('needs an image or video');

    // A push with the site's token: listed with its posts' time once the mastodon post is made.
    const pushed = await stack.api('/site_pushes', { method: 'POST', token, body: { url: 'https://tea.example.com/oolong', title: 'Oolong, the in-between tea' } });
    expect(pushed.status, pushed.text).toBe(201);
    const pushes = page.getByRole('table', { name: 'Articles Tea blog pushed, newest first' });
    await poll(async () => {
      // Away and back reloads the page (each page's own request finished first: no aborted fetch).
      await nav(page, 'Posts');
      await page.getByRole('heading', { name: /^Queue/ }).waitFor();
      await nav(page, 'Sites');
      await page.getByRole('list', { name: 'Sites' }).waitFor();
      return (await pushes.count()) ? pushes.textContent() : '';
    }, 90_000).toMatch(/^(?![\s\S]*not yet)[\s\S]*Oolong, the in-between tea/);
    await poll(() => page.locator('dl.facts').first().textContent()).toContain('Unmatched pushes0');
    await screenshot(page, '11-site-rules-and-pushes');
    expect(
      // 401: the session probe before sign-in; 422: the refused instagram rule.
      consoleErrors.filter((e) => !e.includes('401') && !e.includes('422')),
      consoleErrors.join('\n'),
    ).toEqual([]);
    await context.close();
  });

  it("refuses another workspace's site and rules, and bad rule input, at the HTTP level", async () => {
    const mine = await createWorkspace(stack);
    const theirs = await createWorkspace(stack);
    const site = await stack.accounts.createSite({ workspaceId: theirs.workspaceId, name: 'Theirs', url: 'https://theirs.example.com' });
    const rule = await stack.admin(['site', 'rule', 'add', '--site', String(site.siteId), '--platform', 'twitter']);
    const ruleId = (JSON.parse(rule.stdout) as { rule_id: number }).rule_id;
    const user = await inviteUser(stack, mine.workspaceId);
    const session = await signIn(stack, user.email, user.password);
    expect((await dash(stack, session, 'POST', `/sites/${site.siteId}/rules`, { platform: 'twitter' })).status).toBe(404);
    expect((await dash(stack, session, 'POST', `/site-rules/${ruleId}/disable`)).status).toBe(404);
    expect((await dash(stack, session, 'DELETE', `/site-rules/${ruleId}`)).status).toBe(404);
    const own = await dash(stack, session, 'POST', '/sites', { name: 'Mine', url: 'https://mine.example.com' });
    expect(own.status, own.text).toBe(201);
    for (const body of [{ platform: 'myspace' }, { platform: 'twitter', schedule_mode: 'later' }, { platform: 'twitter', extra: 1 }]) {
      const res = await dash(stack, session, 'POST', `/sites/${own.json.site_id}/rules`, body);
      expect(res.status, res.text).toBe(422);
    }
    // Without the CSRF token nothing changes.
    const noCsrf = await dash(stack, session, 'POST', `/sites/${own.json.site_id}/rules`, { platform: 'twitter' }, { 'x-csrf-token': 'wrong' });
    expect(noCsrf.status).toBe(403);
    const list = await dash(stack, session, 'GET', '/sites');
    expect(list.json.sites[0].rules).toEqual([]);
    const theirRules = JSON.parse((await stack.admin(['site', 'rule', 'list', '--site', String(site.siteId)])).stdout) as { rules: Array<{ enabled: boolean }> };
    expect(theirRules.rules).toEqual([expect.objectContaining({ enabled: true })]);
  });
});
