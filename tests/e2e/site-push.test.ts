import { countCharacters } from '@spa/platforms';
import { createWorkspace, freshClientAddress, type HttpOptions, type Stack, type TestWorkspace } from '@spa/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/expect-error.js';
import { sharedStack } from '../support/shared-stack.js';

/**
 * Site Push end to end: sites and rules through the admin CLI, articles pushed with the site's token
 * through the gateway, posts written by the generation service (built-in composer) in the posts service.
 */
let stack: Stack;
let ws: TestWorkspace;
beforeAll(async () => {
  stack = await sharedStack();
  ws = await createWorkspace(stack, { tier: 'pro' });
}, 300_000);
afterAll(async () => {
  await stack?.stop();
}, 120_000);

const call = (p: string, token: string, opts: HttpOptions = {}) => stack.api(p, { token, localAddress: freshClientAddress(), ...opts });
const push = (token: string, body: unknown) => call('/site_pushes', token, { method: 'POST', body });

async function admin(args: string[]): Promise<Record<string, any>> {
  const r = await stack.admin(args);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Record<string, any>;
}

async function newSite(workspaceId: number, url: string, cms = 'wordpress'): Promise<{ siteId: number; token: string }> {
  const out = await admin(['site', 'create', '--workspace', String(workspaceId), '--name', 'Tea Blog', '--url', url, '--cms', cms]);
  return { siteId: out.site_id as number, token: out.token as string };
}

async function eventually<T>(read: () => Promise<T>, done: (v: T) => boolean, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const blogPosts = async (apiKey: string) => {
  const res = await call('/posts?source=blog&limit=100', apiKey);
  expect(res.status, res.text).toBe(200);
  return res.json.posts as Array<Record<string, any>>;
};

const article = {
  url: 'https://blog.example.com/2026/11/green-tea-at-work',
  title: 'Why green tea beats the afternoon coffee',
  excerpt: 'Less jitter, steadier focus: what a month of green tea at 3 pm did to our team.',
  content: '<p>We swapped the 3 pm coffee for green tea for a month.</p><p>Here is what changed, with numbers.</p>',
  image_url: 'https://blog.example.com/images/tea.jpg',
  published_at: '2026-11-20T08:00:00Z',
};

describe('Site Push', () => {
  let site: { siteId: number; token: string };
  let twitterRule: number;

  it('manages rules with the admin CLI (site create --cms, rule add/list/enable/disable/remove)', async () => {
    site = await newSite(ws.workspaceId, 'https://blog.example.com');
    const added = await admin(['site', 'rule', 'add', '--site', String(site.siteId), '--platform', 'twitter']);
    expect(added).toMatchObject({ site_id: site.siteId, platform: 'twitter', trigger: 'publish', schedule_mode: 'draft', enabled: true });
    twitterRule = added.rule_id as number;
    const linkedin = await admin(['site', 'rule', 'add', '--site', String(site.siteId), '--platform', 'linkedin', '--schedule-mode', 'scheduled', '--trigger', 'publish']);
    expect(linkedin).toMatchObject({ schedule_mode: 'scheduled', enabled: true });
    const extra = await admin(['site', 'rule', 'add', '--site', String(site.siteId), '--platform', 'mastodon']);
    expect((await admin(['site', 'rule', 'disable', '--rule', String(extra.rule_id)])).enabled).toBe(false);
    expect((await admin(['site', 'rule', 'enable', '--rule', String(extra.rule_id)])).enabled).toBe(true);
    expect(await admin(['site', 'rule', 'remove', '--rule', String(extra.rule_id)])).toEqual({ rule_id: extra.rule_id, removed: true });
    const list = await admin(['site', 'rule', 'list', '--site', String(site.siteId)]);
    expect(list.rules.map((r: any) => [r.platform, r.schedule_mode])).toEqual([
      ['twitter', 'draft'],
      ['linkedin', 'scheduled'],
    ]);
    // Bad input: unknown platform, a media-only platform, a bad mode, a missing site or rule.
    for (const [args, text] of [
      [['--platform', 'myspace'], 'platform must be one of'],
      [['--platform', 'instagram'], 'needs an image or video'],
      [['--platform', 'twitter', '--schedule-mode', 'later'], 'schedule_mode must be one of'],
      [['--platform', 'twitter', '--trigger', 'update'], 'trigger must be one of'],
    ] as const) {
      const r = await stack.admin(['site', 'rule', 'add', '--site', String(site.siteId), ...args]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('INVALID_PARAMETERS');
      expect(r.stderr).toContain(text);
    }
    expect((await stack.admin(['site', 'rule', 'add', '--site', '999999', '--platform', 'twitter'])).stderr).toContain('NOT_FOUND');
    expect((await stack.admin(['site', 'rule', 'disable', '--rule', '999999'])).stderr).toContain('NOT_FOUND');
    expect((await stack.admin(['site', 'rule', 'list'])).code).toBe(2);
  });

  it('turns a pushed article into one post per enabled rule, written with the link, as draft or in the next slot', async () => {
    const twitter = (await stack.accounts.connectSocialAccount({ workspaceId: ws.workspaceId, platform: 'twitter', username: 'teablog', sandbox: true })).socialAccountId;
    const linkedin = (await stack.accounts.connectSocialAccount({ workspaceId: ws.workspaceId, platform: 'linkedin', username: 'teablog-li', sandbox: true })).socialAccountId;
    // One slot a day, hours away: the post made in the next slot never comes due while the test runs (the shared stack publishes).
    const { postingSchedule } = await stack.accounts.getPostingSchedule({ workspaceId: ws.workspaceId, socialAccountId: linkedin });
    const slot = `${String((new Date().getUTCHours() + 6) % 24).padStart(2, '0')}:00`;
    await stack.accounts.updatePostingSchedule({
      workspaceId: ws.workspaceId,
      scheduleId: postingSchedule!.id,
      timezone: 'UTC',
      maxPostsPerDay: 5,
      paused: false,
      hasPostingSlots: true,
      postingSlots: [0, 1, 2, 3, 4, 5, 6].map((dayOfWeek) => ({ dayOfWeek, timeOfDay: slot, enabled: true })),
    });
    const res = await push(site.token, article);
    expect(res.status, res.text).toBe(201);
    expect(res.json.site_push).toMatchObject({ url: article.url, title: article.title, matched_rules: 2, content_changed: true });
    const status = await eventually(
      async () => (await call('/site_pushes/status', site.token)).json,
      (s) => s.recent_pushes[0]?.consumed_at !== null,
    );
    expect(status.connection).toEqual({ name: 'Tea Blog', site_url: 'https://blog.example.com/', cms: 'wordpress', last_push_at: res.json.site_push.last_pushed_at, unmatched_pushes: 0 });
    expect(status.rules).toEqual([
      { id: twitterRule, platform: 'twitter', trigger: 'publish', schedule_mode: 'draft', enabled: true },
      { id: expect.any(Number), platform: 'linkedin', trigger: 'publish', schedule_mode: 'scheduled', enabled: true },
    ]);
    expect(status.recent_pushes).toEqual([{ url: article.url, title: article.title, last_pushed_at: res.json.site_push.last_pushed_at, consumed_at: expect.any(String) }]);

    const posts = await blogPosts(ws.apiKey);
    expect(posts).toHaveLength(2);
    const tw = posts.find((p) => p.post_accounts[0].social_account_id === twitter)!;
    const li = posts.find((p) => p.post_accounts[0].social_account_id === linkedin)!;
    expect(tw).toMatchObject({ status: 'draft', source: 'blog', scheduled_at: null });
    expect(tw.body.endsWith(`\n\n${article.url}`)).toBe(true);
    expect(tw.body.length).toBeGreaterThan(article.url.length + 10);
    expect(countCharacters('twitter', tw.body)).toBeLessThanOrEqual(280);
    expect(li).toMatchObject({ status: 'scheduled', source: 'blog' });
    expect(new Date(li.scheduled_at).getTime()).toBeGreaterThan(Date.now());
    expect(li.body).toContain(article.url);
  });

  it('is idempotent by URL: a repeat updates last_pushed_at and makes no posts; changed content makes a new set', async () => {
    const before = (await call('/site_pushes/status', site.token)).json.recent_pushes[0];
    const again = await push(site.token, { ...article, url: `${article.url}#comments` });
    expect(again.status, again.text).toBe(200);
    expect(again.json.site_push).toMatchObject({ url: article.url, content_changed: false, consumed_at: before.consumed_at });
    expect(again.json.site_push.drafts).toHaveLength(2);
    expect(new Date(again.json.site_push.last_pushed_at).getTime()).toBeGreaterThan(new Date(before.last_pushed_at).getTime());
    expect(await blogPosts(ws.apiKey)).toHaveLength(2);

    const edited = await push(site.token, { ...article, title: 'Why green tea beats coffee (updated with a second month)' });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.json.site_push).toMatchObject({ content_changed: true, consumed_at: null });
    await eventually(
      () => blogPosts(ws.apiKey),
      (p) => p.length === 4,
    );
    const status = await eventually(
      async () => (await call('/site_pushes/status', site.token)).json,
      (s) => s.recent_pushes[0].consumed_at !== null,
    );
    expect(status.recent_pushes).toHaveLength(1);
    expect(status.recent_pushes[0].title).toBe('Why green tea beats coffee (updated with a second month)');
    await new Promise((r) => setTimeout(r, 500));
    expect(await blogPosts(ws.apiKey)).toHaveLength(4);
  });

  it('counts pushes no enabled rule matches, keeps 10 recent pushes newest first, and makes nothing for them', async () => {
    const other = await createWorkspace(stack);
    const quiet = await newSite(other.workspaceId, 'https://www.notes.example.org', 'ghost');
    const rule = await admin(['site', 'rule', 'add', '--site', String(quiet.siteId), '--platform', 'mastodon']); // no mastodon account
    const first = await push(quiet.token, { url: 'https://notes.example.org/a', title: 'A' });
    expect(first.status, first.text).toBe(201);
    expect(first.json.site_push).toMatchObject({ matched_rules: 0, consumed_at: null, drafts: [] });
    await stack.accounts.connectSocialAccount({ workspaceId: other.workspaceId, platform: 'mastodon', username: 'notes', sandbox: true });
    await admin(['site', 'rule', 'disable', '--rule', String(rule.rule_id)]);
    for (let i = 0; i < 11; i++) expect((await push(quiet.token, { url: `https://www.notes.example.org/n/${i}`, title: `Note ${i}` })).status).toBe(201);
    const status = (await call('/site_pushes/status', quiet.token)).json;
    expect(status.connection).toMatchObject({ cms: 'ghost', unmatched_pushes: 12 });
    expect(status.recent_pushes.map((p: any) => p.title)).toEqual(['Note 10', 'Note 9', 'Note 8', 'Note 7', 'Note 6', 'Note 5', 'Note 4', 'Note 3', 'Note 2', 'Note 1']);
    expect(status.connection.last_push_at).toBe(status.recent_pushes[0].last_pushed_at);
    expect(status.rules).toEqual([{ id: rule.rule_id, platform: 'mastodon', trigger: 'publish', schedule_mode: 'draft', enabled: false }]);
    expect(await blogPosts(other.apiKey)).toHaveLength(0);
  });

  it('refuses the wrong token kind, foreign or bad URLs, bad fields and oversized bodies, changing nothing', async () => {
    expectError(await push(ws.apiKey, article), 403, 'ENDPOINT_NOT_AVAILABLE');
    expectError(await call('/site_pushes/status', ws.apiKey), 403, 'ENDPOINT_NOT_AVAILABLE');
    expectError(await call('/posts', site.token), 403, 'ENDPOINT_NOT_AVAILABLE');
    expectError(await push('st_live_not-a-real-token', article), 401, 'UNAUTHORIZED');
    const bad: Array<[unknown, string]> = [
      [{ ...article, url: 'https://evil.example.net/2026/11/green-tea-at-work' }, 'url'],
      [{ ...article, url: 'https://blog.example.com.evil.net/x' }, 'url'],
      [{ ...article, url: 'ftp://blog.example.com/x' }, 'url'],
      [{ ...article, url: 'not a url' }, 'url'],
      [{ ...article, url: undefined }, 'url'],
      [{ ...article, title: '   ' }, 'title'],
      [{ ...article, title: 't'.repeat(501) }, 'title'],
      [{ ...article, content: 'c'.repeat(100_001) }, 'content'],
      [{ ...article, image_url: 'javascript:alert(1)' }, 'image_url'],
      [{ ...article, published_at: 'yesterday' }, 'published_at'],
      [[article], ''],
    ];
    for (const [body, field] of bad) {
      const res = await push(site.token, body);
      expectError(res, 422, 'INVALID_PARAMETERS');
      expect(res.json.error.details.join(' ')).toContain(field);
    }
    expectError(await push(site.token, { ...article, content: 'x'.repeat(270_000) }), 413, 'PAYLOAD_TOO_LARGE');
    const status = (await call('/site_pushes/status', site.token)).json;
    expect(status.recent_pushes).toHaveLength(1);
    expect(await blogPosts(ws.apiKey)).toHaveLength(4);
  });
});
