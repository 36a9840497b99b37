import { createWorkspace, freshClientAddress, request, type HttpOptions, type Stack, type TestWorkspace } from '@spa/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalPds, type LocalPds } from '../support/bluesky-pds.js';
import { dash, inviteUser, signIn, type DashboardSession } from '../support/dashboard.js';
import { sharedStack } from '../support/shared-stack.js';

/**
 * Credential entry through the dashboard (POST /dashboard/api/social-accounts/credentials): a Bluesky app
 * password checked by creating a session on a real PDS (@atproto/pds, started here), a Telegram bot token and
 * chat checked with the Bot API (the sandbox). Each refusal names the field and stores nothing; an accepted
 * account is listed (never with a secret) and a post published through it reaches the platform.
 */
let stack: Stack;
let pds: LocalPds;
let ws: TestWorkspace;
let session: DashboardSession;

beforeAll(async () => {
  pds = await startLocalPds();
  stack = await sharedStack();
  ws = await createWorkspace(stack);
  const user = await inviteUser(stack, ws.workspaceId);
  session = await signIn(stack, user.email, user.password);
}, 240_000);
afterAll(async () => {
  await stack?.stop();
  await pds?.stop();
});

const api = (p: string, opts: HttpOptions = {}) => stack.api(p, { token: ws.apiKey, localAddress: freshClientAddress(), ...opts });
const connect = (body: Record<string, unknown>) => dash(stack, session, 'POST', '/social-accounts/credentials', body);
const accountCount = async () => ((await api('/social_accounts')).json.social_accounts as unknown[]).length;

async function publishTo(accountId: number, text: string): Promise<{ status: string; post_accounts: Array<Record<string, unknown>> }> {
  const created = await api('/posts', { body: { post: { body: text, post_accounts: [{ social_account_id: accountId }] } } });
  expect(created.status, created.text).toBe(201);
  const accepted = await api(`/posts/${created.json.post.id}/publishes`, { method: 'POST', body: {} });
  expect(accepted.status, accepted.text).toBe(202);
  let post = { status: '', post_accounts: [] as Array<Record<string, unknown>> };
  await expect
    .poll(
      async () => {
        post = (await api(`/posts/${created.json.post.id}`)).json.post;
        return ['posted', 'failed', 'partial'].includes(post.status);
      },
      { timeout: 120_000, interval: 250 },
    )
    .toBe(true);
  return post;
}

/** A refusal: 422 INVALID_PARAMETERS whose message names `field`, and no account stored. */
async function refused(body: Record<string, unknown>, field: string, says?: RegExp) {
  const before = await accountCount();
  const res = await connect(body);
  expect(res.status, res.text).toBe(422);
  expect(res.json.error.code).toBe('INVALID_PARAMETERS');
  // One problem is in the message; several are each in details.
  const said = [res.json.error.message, ...(res.json.error.details ?? [])].join(' | ');
  expect(said).toContain(field);
  if (says) expect(said).toMatch(says);
  expect(await accountCount()).toBe(before);
  return res;
}

describe('Bluesky: handle + app password against a real PDS', () => {
  it('refuses a wrong app password, the main password, a bad or dead PDS address; connects with an app password and publishes', async () => {
    const account = await pds.createAccount(`alice${Date.now() % 100000}`);
    const appPassword = (await pds.xrpc('com.atproto.server.createAppPassword', {}, { body: { name: 'spa' }, token: account.accessJwt })).body.password as string;
    expect(appPassword).toBeTruthy();
    const base = { platform: 'bluesky', identifier: account.handle, pds_url: pds.url };

    await refused({ ...base, app_password: 'aaaa-bbbb-cccc-dddd' }, 'app_password', /refused the identifier or app password/);
    await refused({ ...base, app_password: account.password }, 'app_password', /not an app password/);
    await refused({ ...base, app_password: appPassword, pds_url: 'ftp://pds.example' }, 'pds_url');
    await refused({ ...base, app_password: appPassword, pds_url: 'http://127.0.0.1:9' }, 'pds_url', /did not answer/);
    await refused({ ...base, identifier: '  ', app_password: '' }, 'identifier');
    const unknownField = await connect({ ...base, app_password: appPassword, bot_token: 'x' });
    expect(unknownField.status).toBe(422);

    const ok = await connect({ ...base, identifier: `@${account.handle}`, app_password: appPassword });
    expect(ok.status, ok.text).toBe(201);
    expect(JSON.stringify(ok.json)).not.toContain(appPassword);
    const id = ok.json.social_account_id as number;
    expect(ok.json.social_accounts.find((a: { id: number }) => a.id === id)).toMatchObject({ platform: 'bluesky', username: account.handle, status: 'connected', sandbox: false });

    const listed = await api(`/social_accounts/${id}`);
    expect(listed.status).toBe(200);
    expect(listed.json.social_account).toMatchObject({ id, platform: 'bluesky', username: account.handle, disconnected: false });
    // The session's access JWT expiry (the refresh job renews it before then).
    expect(Date.parse(listed.json.social_account.token_expires_at)).toBeGreaterThan(Date.now());
    expect(listed.text).not.toContain(appPassword);

    const text = `hello from the dashboard-connected account ${Date.now()}`;
    const post = await publishTo(id, text);
    expect(post.status, JSON.stringify(post.post_accounts)).toBe('posted');
    const records = await pds.xrpc('com.atproto.repo.listRecords', { repo: account.did, collection: 'app.bsky.feed.post' });
    expect(records.body.records.map((r: { value: { text: string } }) => r.value.text)).toContain(text);

    // Entering it again reconnects the same account (same id), never a second one.
    const again = await connect({ ...base, app_password: appPassword });
    expect(again.status).toBe(201);
    expect(again.json).toMatchObject({ social_account_id: id, reconnected: true });
  });
});

describe('Telegram: bot token + chat checked with the Bot API', () => {
  const chats = [
    { id: -1001234567890, type: 'channel', title: 'Acme News', username: 'acmenews' },
    { id: -1002000000001, type: 'channel', title: 'Read only', bot_status: 'member' },
    { id: -1002000000002, type: 'channel', title: 'No posting', can_post_messages: false },
  ];
  beforeAll(async () => {
    for (const chat of chats) expect((await request(stack.sandboxUrl!, '/_sandbox/telegram/chats', { body: chat })).status).toBe(204);
  });

  it('refuses a bad token, an unknown chat, a chat the bot cannot post in; connects and publishes', async () => {
    await refused({ platform: 'telegram', bot_token: '123456:not-a-real-token', chat_id: '@acmenews' }, 'bot_token', /does not accept this bot token/);
    await refused({ platform: 'telegram', bot_token: 'sandbox-acmebot/../x', chat_id: '@acmenews' }, 'bot_token');
    await refused({ platform: 'telegram', bot_token: 'sandbox-acmebot', chat_id: 'acme news' }, 'chat_id');
    await refused({ platform: 'telegram', bot_token: 'sandbox-acmebot', chat_id: '-1009999999999' }, 'chat_id', /no chat/);
    await refused({ platform: 'telegram', bot_token: 'sandbox-acmebot', chat_id: '-1002000000001' }, 'chat_id', /cannot post.*administrator/);
    await refused({ platform: 'telegram', bot_token: 'sandbox-acmebot', chat_id: -1002000000002 }, 'chat_id', /cannot post/);

    const ok = await connect({ platform: 'telegram', bot_token: 'sandbox-acmebot', chat_id: '@acmenews' });
    expect(ok.status, ok.text).toBe(201);
    expect(JSON.stringify(ok.json)).not.toContain('sandbox-acmebot');
    const id = ok.json.social_account_id as number;
    expect(ok.json.social_accounts.find((a: { id: number }) => a.id === id)).toMatchObject({ platform: 'telegram', username: 'acmenews', display_name: 'Acme News', status: 'connected' });
    const listed = await api(`/social_accounts/${id}`);
    expect(listed.json.social_account).toMatchObject({ platform: 'telegram', username: 'acmenews', token_expires_at: null });
    expect(listed.text).not.toContain('sandbox-acmebot');

    const text = `telegram hello ${Date.now()}`;
    const post = await publishTo(id, text);
    expect(post.status, JSON.stringify(post.post_accounts)).toBe('posted');
    // Stored with the chat's numeric id (the @name resolved): the permalink is the public channel's.
    expect(post.post_accounts[0]!.permalink).toMatch(/^https:\/\/t\.me\/acmenews\/\d+$/);
    const sent = (await request(stack.sandboxUrl!, '/_sandbox/posts?platform=telegram')).json.posts as Array<{ text: string; details: { chat_id: string } }>;
    expect(sent.find((p) => p.text === text)?.details.chat_id).toBe('-1001234567890');
  });
});
