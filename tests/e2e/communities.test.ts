import { createWorkspace, freshClientAddress, request, type HttpOptions, type Stack, type TestWorkspace } from '@spa/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/expect-error.js';
import { sharedStack } from '../support/shared-stack.js';

/** GET /communities through the gateway → publisher → each platform's documented listing (sandbox). */
let stack: Stack;
let ws: TestWorkspace;
beforeAll(async () => {
  stack = await sharedStack();
  ws = await createWorkspace(stack);
}, 300_000);
afterAll(async () => {
  await stack?.stop();
}, 120_000);

const call = (p: string, token = ws.apiKey, opts: HttpOptions = {}) => stack.api(p, { token, localAddress: freshClientAddress(), ...opts });
const connect = async (workspaceId: number, platform: string, username: string) => (await stack.accounts.connectSocialAccount({ workspaceId, platform, username, sandbox: true })).socialAccountId;
const asked = async (platform: string, account: string) =>
  ((await request(stack.sandboxUrl!, `/_sandbox/requests?platform=${platform}`)).json.requests as Array<{ path: string; account: string }>).filter((r) => r.account === account).map((r) => r.path);

describe('GET /communities', () => {
  it("lists a Discord account's text and announcement channels of its server", async () => {
    const id = await connect(ws.workspaceId, 'discord', 'guildbot');
    const res = await call(`/communities?social_account_id=${id}`);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({
      communities: [
        { id: 'chan-guildbot', name: 'general', kind: 'text_channel', current: true },
        { id: 'news-guildbot', name: 'announcements', kind: 'announcement_channel', current: false },
      ],
      meta: { total_count: 2 },
    });
    expect(await asked('discord', 'guildbot')).toEqual(['/discord/guilds/guild-guildbot/channels']);
  });

  it('lists the Slack channels the bot is a member of, across pages', async () => {
    const id = await connect(ws.workspaceId, 'slack', 'teambot');
    const res = await call(`/communities?social_account_id=${id}`);
    expect(res.status, res.text).toBe(200);
    expect(res.json.communities).toEqual([
      { id: 'chan-teambot', name: 'general', kind: 'public_channel', current: true },
      { id: 'G-team-teambot', name: 'team-news', kind: 'private_channel', current: false },
    ]);
    expect(await asked('slack', 'teambot')).toEqual(['/slack/conversations.list', '/slack/conversations.list']);
  });

  it("answers a Telegram account's own chat (the Bot API lists no chats)", async () => {
    const id = await connect(ws.workspaceId, 'telegram', 'chanbot');
    const res = await call(`/communities?social_account_id=${id}`);
    expect(res.status, res.text).toBe(200);
    expect(res.json.communities).toEqual([{ id: expect.stringMatching(/^-100\d+$/), name: 'chanbot channel', kind: 'channel', current: true }]);
  });

  it("refuses other platforms, another workspace's account, bad ids, a missing scope and a site token", async () => {
    const mastodon = await connect(ws.workspaceId, 'mastodon', 'no_communities');
    const unsupported = await call(`/communities?social_account_id=${mastodon}`);
    expectError(unsupported, 422, 'PLATFORM_UNSUPPORTED');
    expect(unsupported.json.error.message).toContain('mastodon');
    const other = await createWorkspace(stack);
    const theirs = await connect(other.workspaceId, 'discord', 'their_guild');
    expectError(await call(`/communities?social_account_id=${theirs}`), 404, 'NOT_FOUND');
    expectError(await call('/communities?social_account_id=999999999'), 404, 'NOT_FOUND');
    for (const bad of ['', '0', '-1', 'x', '99999999999999999999']) {
      const res = await call(`/communities?social_account_id=${bad}`);
      expectError(res, 422, 'INVALID_PARAMETERS');
      expect(res.json.error.details.join(' ')).toContain('social_account_id');
    }
    const narrow = await createWorkspace(stack, { scopes: ['accounts:read'] });
    const own = await connect(narrow.workspaceId, 'discord', 'narrow_guild');
    expectError(await call(`/communities?social_account_id=${own}`, narrow.apiKey), 403, 'INSUFFICIENT_SCOPE');
    const site = await stack.accounts.createSite({ workspaceId: ws.workspaceId, name: 'Blog', url: 'https://blog.example.com' });
    expectError(await call(`/communities?social_account_id=${mastodon}`, site.token), 403, 'ENDPOINT_NOT_AVAILABLE');
    expect(await asked('discord', 'their_guild')).toEqual([]);
  });
});
