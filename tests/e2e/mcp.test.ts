import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace, freshClientAddress, request, startStack, uniqueName, type HttpOptions, type Stack, type TestWorkspace } from '@spa/testing';
import { expectError } from '../support/expect-error.js';
import { png } from '../support/media-files.js';
import { connectMcp, firstText, type McpConnection } from '../support/mcp.js';

let stack: Stack;
let ws: TestWorkspace;
let mcp: McpConnection;
beforeAll(async () => {
  // Media from a URL may be fetched from this machine's loopback (the test's file server).
  stack = await startStack({ publishing: true, gatewayEnv: { WEB_FETCH_ALLOW_PRIVATE: 'true' } });
  ws = await createWorkspace(stack);
  mcp = await connectMcp(stack.baseUrl, ws.apiKey, freshClientAddress());
}, 120_000);
afterAll(async () => {
  await mcp?.client.close();
  await stack?.stop();
});

type PostJson = { id: number; status: string; body: string; post_accounts: Array<{ permalink: string | null; platform_post_id: string | null }> };

const rest = (p: string, token: string, opts: HttpOptions = {}) => stack.api(p, { token, localAddress: freshClientAddress(), ...opts });
const connect = async (username: string) => (await stack.accounts.connectSocialAccount({ workspaceId: ws.workspaceId, platform: 'twitter', username, sandbox: true })).socialAccountId;
const sandboxPosts = async (account: string) =>
  ((await request(stack.sandboxUrl!, '/_sandbox/posts?platform=twitter')).json.posts as Array<{ account: string; text: string; id: string }>).filter((p) => p.account === account);

/** A tool's structured result, failing the test with the tool's text when it is a tool error. */
async function call<T = Record<string, unknown>>(client: Client, name: string, args: Record<string, unknown>): Promise<T> {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError, firstText(result)).toBeFalsy();
  return result.structuredContent as T;
}

/** Polls the post through the get_post tool until it is posted, failed or partial. */
async function settledThrough(client: Client, id: number): Promise<PostJson> {
  let post: PostJson | undefined;
  await expect
    .poll(
      async () => {
        post = (await call<{ post: PostJson }>(client, 'get_post', { id })).post;
        return ['posted', 'failed', 'partial'].includes(post.status);
      },
      { timeout: 45_000, interval: 500 },
    )
    .toBe(true);
  return post!;
}

describe('the MCP endpoint', () => {
  it('lists one tool per operation an API key can call, with truthful hints, and its resources and prompts', async () => {
    const { tools } = await mcp.client.listTools();
    const doc = (await rest('/openapi.json', ws.apiKey)).json as { paths: Record<string, Record<string, { description?: string }>> };
    // Every operation but the dashboard-only and Site Push ones, and the media relay (files, not JSON).
    const keyOperations = Object.entries(doc.paths)
      .filter(([p]) => p !== '/media/{r2_key}')
      .flatMap(([, item]) => Object.values(item))
      .filter((op) => !/^(Dashboard only|Site Connection token only)/m.test(op.description ?? ''));
    expect(tools.length).toBe(keyOperations.length);
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const name of ['list_posts', 'create_post', 'publish_post', 'upload_media', 'generate_post', 'start_quote_week', 'get_analytics_rollups', 'get_voice_profile', 'list_pinterest_boards']) {
      expect(byName.has(name), name).toBe(true);
    }
    expect(byName.get('publish_post')?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, openWorldHint: true });
    expect(byName.get('delete_post')?.annotations).toMatchObject({ destructiveHint: true, openWorldHint: true });
    expect(byName.get('list_posts')?.annotations).toMatchObject({ readOnlyHint: true });
    expect(byName.get('create_post')?.inputSchema.required).toEqual(['body']);
    expect(byName.get('list_posts')?.outputSchema?.type).toBe('object');

    const { resources } = await mcp.client.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual(['spa://platforms', 'spa://preferences', 'spa://voice-profile']);
    const platforms = await mcp.client.readResource({ uri: 'spa://platforms' });
    const text = (platforms.contents[0] as { text: string }).text;
    expect(JSON.parse(text)).toEqual((await rest('/platforms', ws.apiKey)).json);

    // A client of the 2026-07-28 revision gets the same tools, and their answers match their output schemas.
    const modern = await connectMcp(stack.baseUrl, ws.apiKey, freshClientAddress(), { modern: true });
    try {
      expect(modern.client.getDiscoverResult()?.supportedVersions).toContain('2026-07-28');
      expect((await modern.client.listTools()).tools.map((t) => t.name)).toEqual(tools.map((t) => t.name));
      const listed = await modern.client.callTool({ name: 'list_posts', arguments: { limit: 1 } });
      expect(listed.isError, firstText(listed)).toBeFalsy();
      expect(listed.structuredContent).toMatchObject({ meta: { limit: 1, offset: 0 } });
    } finally {
      await modern.client.close();
    }

    const { prompts } = await mcp.client.listPrompts();
    expect(prompts.map((p) => p.name).sort()).toEqual(['article_to_posts', 'week_of_posts']);
    const week = await mcp.client.getPrompt({ name: 'week_of_posts', arguments: { platform: 'mastodon' } });
    expect((week.messages[0]?.content as { text: string }).text).toContain('mastodon');
  });

  it('creates and schedules a post through tools, and the post is published on the platform', async () => {
    const username = uniqueName('mcp').slice(0, 30);
    const accountId = await connect(username);
    const listed = await call<{ social_accounts: Array<{ id: number }> }>(mcp.client, 'list_social_accounts', {});
    expect(listed.social_accounts.map((a) => a.id)).toContain(accountId);
    const text = `from an agent ${uniqueName('m')}`;
    const at = new Date(Date.now() + 8_000).toISOString();
    const created = await mcp.client.callTool({ name: 'create_post', arguments: { body: { post: { body: text, scheduled_at: at, post_accounts: [{ social_account_id: accountId }] } } } });
    expect(created.isError, firstText(created)).toBeFalsy();
    const post = (created.structuredContent as { post: PostJson }).post;
    expect(post).toMatchObject({ status: 'scheduled', body: text });
    expect(firstText(created)).toBe(`Create a post: post ${post.id} (scheduled, scheduled at ${at}) (HTTP 201).`);
    expect(JSON.parse((created.content as Array<{ text: string }>)[1]!.text)).toEqual(created.structuredContent);

    const settled = await settledThrough(mcp.client, post.id);
    expect(settled.status).toBe('posted');
    const remote = await sandboxPosts(username);
    expect(remote.map((r) => r.text)).toEqual([text]);
    expect(settled.post_accounts[0]?.platform_post_id).toBe(remote[0]?.id);
  });

  it('refuses a scope the key lacks as a tool error naming it, and bad arguments naming the field, as REST does', async () => {
    const readOnly = await createWorkspace(stack, { scopes: ['posts:read'] });
    const agent = await connectMcp(stack.baseUrl, readOnly.apiKey, freshClientAddress());
    try {
      const refused = await agent.client.callTool({ name: 'create_post', arguments: { body: { post: { body: 'not allowed' } } } });
      expect(refused.isError).toBe(true);
      expect(firstText(refused)).toBe('INSUFFICIENT_SCOPE: This API key lacks the required scope posts:write');
      const twin = await rest('/posts', readOnly.apiKey, { body: { post: { body: 'not allowed' } } });
      expectError(twin, 403, 'INSUFFICIENT_SCOPE');
      expect(refused.structuredContent).toEqual(twin.json);
      // Reading is allowed to this key.
      expect((await call<{ posts: unknown[] }>(agent.client, 'list_posts', { limit: 5 })).posts).toEqual([]);
    } finally {
      await agent.client.close();
    }

    const invalid = await mcp.client.callTool({ name: 'create_post', arguments: { body: { post: { body: 'when?', scheduled_at: 'tomorrow' } } } });
    expect(invalid.isError).toBe(true);
    expect(firstText(invalid)).toMatch(/^INVALID_PARAMETERS: /);
    expect(firstText(invalid)).toContain('scheduled_at');
    const unknownArg = await mcp.client.callTool({ name: 'get_post', arguments: { post_id: 1 } });
    expect(unknownArg.structuredContent).toMatchObject({ error: { code: 'INVALID_PARAMETERS', details: [expect.stringMatching(/^post_id: unknown argument/), 'id: required'] } });
    const missing = await mcp.client.callTool({ name: 'get_post', arguments: { id: 999_999_999 } });
    expect(firstText(missing)).toMatch(/^NOT_FOUND: /);
    await expect(mcp.client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(/Unknown tool: no_such_tool/);
  });

  it('counts a tool call in the same per-token limit as its REST twin, and once in the global per-IP limit', async () => {
    // A workspace of its own: its token's windows start with this test.
    const key = (await createWorkspace(stack)).apiKey;
    const agent = await connectMcp(stack.baseUrl, key, freshClientAddress());
    try {
      // The publishes bucket: 30 per minute per token, whether the call came over REST or as a tool.
      for (let i = 0; i < 20; i++) expectError(await rest('/posts/999999999/publishes', key, { body: {} }), 404, 'NOT_FOUND');
      for (let i = 0; i < 10; i++) expect(firstText(await agent.client.callTool({ name: 'publish_post', arguments: { post_id: 999_999_999, body: {} } }))).toMatch(/^NOT_FOUND: /);
      const restRefused = await rest('/posts/999999999/publishes', key, { body: {} });
      expectError(restRefused, 429, 'RATE_LIMIT_EXCEEDED');
      expect(restRefused.headers['ratelimit-limit']).toBe('30');
      const toolRefused = await agent.client.callTool({ name: 'publish_post', arguments: { post_id: 999_999_999, body: {} } });
      expect(toolRefused.isError).toBe(true);
      expect(firstText(toolRefused)).toMatch(/^RATE_LIMIT_EXCEEDED: Rate limit exceeded: 30 requests per 1 minute\(s\); retry in \d+ s\nRetry after \d+ s\.$/);
      // Other operations of the same token are not in that bucket.
      expect((await call<{ posts: unknown[] }>(agent.client, 'list_posts', { limit: 1 })).posts).toBeDefined();
    } finally {
      await agent.client.close();
    }

    // The global limit counts the MCP request once, not once more for the REST request it became.
    const ip = freshClientAddress();
    const first = await stack.api('/posts?limit=1', { token: ws.apiKey, localAddress: ip });
    const before = Number(first.headers['ratelimit-remaining']);
    const sameIp = await connectMcp(stack.baseUrl, ws.apiKey, ip);
    try {
      await call(sameIp.client, 'list_posts', { limit: 1 });
      const after = await stack.api('/posts?limit=1', { token: ws.apiKey, localAddress: ip });
      expect(Number(after.headers['ratelimit-remaining'])).toBe(before - sameIp.requests() - 1);
    } finally {
      await sameIp.client.close();
    }
  });

  it('uploads media from a URL and as base64 through tools, as REST stores an upload', async () => {
    const image = await png(40, 30);
    const files = http.createServer((req, res) => {
      if (req.url === '/card.png') res.writeHead(200, { 'content-type': 'image/png' }).end(image);
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
    const fileUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
    try {
      const fromUrl = await call<{ r2_key: string; content_type: string; width: number; height: number; size_bytes: number }>(mcp.client, 'upload_media_from_url', {
        body: { url: `${fileUrl}/card.png`, platform: 'twitter' },
      });
      expect(fromUrl).toMatchObject({ content_type: 'image/png', width: 40, height: 30, size_bytes: image.length });
      expect(fromUrl.r2_key).toMatch(new RegExp(`^ws/${ws.workspaceId}/`));

      const missing = await mcp.client.callTool({ name: 'upload_media_from_url', arguments: { body: { url: `${fileUrl}/nothing.png`, platform: 'twitter' } } });
      expect(missing.structuredContent).toMatchObject({ error: { code: 'INVALID_PARAMETERS', details: ['url answered HTTP 404'] } });

      const asBase64 = await call<{ content_type: string; width: number }>(mcp.client, 'upload_media', { body: { platform: 'twitter', content_type: 'image/png', media: image.toString('base64') } });
      expect(asBase64).toMatchObject({ content_type: 'image/png', width: 40 });
    } finally {
      files.closeAllConnections();
      await new Promise((resolve) => files.close(resolve));
    }
  });

  it('answers 401 in the error envelope without a valid key, and 405 to GET (stateless: no stream to resume)', async () => {
    const headers = { accept: 'application/json, text/event-stream' };
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
    expectError(await stack.http('/mcp', { body: initialize, headers, localAddress: freshClientAddress() }), 401, 'UNAUTHORIZED');
    expectError(await stack.http('/mcp', { body: initialize, headers, token: 'sk_live_nope', localAddress: freshClientAddress() }), 401, 'UNAUTHORIZED');
    const get = await stack.http('/mcp', { token: ws.apiKey, headers: { accept: 'text/event-stream' }, localAddress: freshClientAddress() });
    expect(get.status).toBe(405);
  });

  it('serves desktop agents over stdio with the SDK package’s spa-mcp, speaking to /mcp with the key from the environment', async () => {
    const username = uniqueName('stdio').slice(0, 30);
    const accountId = await connect(username);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [path.resolve('sdk/typescript/dist/mcp/stdio.js')],
      env: { SPA_BASE_URL: stack.baseUrl, SPA_API_KEY: ws.apiKey, PATH: process.env.PATH ?? '' },
      stderr: 'pipe',
    });
    const desktop = new Client({ name: 'desktop-agent', version: '1.0.0' });
    await desktop.connect(transport);
    try {
      const { tools } = await desktop.listTools();
      expect(tools.map((t) => t.name)).toEqual((await mcp.client.listTools()).tools.map((t) => t.name));
      const text = `over stdio ${uniqueName('s')}`;
      const { post } = await call<{ post: PostJson }>(desktop, 'create_post', { body: { post: { body: text, post_accounts: [{ social_account_id: accountId }] } } });
      expect(post.status).toBe('draft');
      const accepted = await call<{ post: PostJson }>(desktop, 'publish_post', { post_id: post.id, body: {} });
      expect(['publishing', 'posted']).toContain(accepted.post.status);
      expect((await settledThrough(desktop, post.id)).status).toBe('posted');
      expect((await sandboxPosts(username)).map((r) => r.text)).toEqual([text]);
      const refused = await desktop.callTool({ name: 'get_post', arguments: { id: 999_999_999 } });
      expect(refused.isError).toBe(true);
      expect(firstText(refused)).toMatch(/^NOT_FOUND: /);
    } finally {
      await desktop.close();
    }
  });
});
