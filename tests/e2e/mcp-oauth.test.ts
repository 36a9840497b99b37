import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import {
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type OAuthClientInformationMixed,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type OAuthTokens,
} from '@modelcontextprotocol/client';
import { createWorkspace, freshClientAddress, startStack, type Stack } from '@spa/testing';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, screenshot } from '../support/browser.js';
import { inviteUser } from '../support/dashboard.js';
import { expectError } from '../support/expect-error.js';
import { firstText } from '../support/mcp.js';
import { issueTestCertificates } from '../support/test-certificates.js';

/**
 * An AI agent that cannot hold an API key signs in with OAuth (the MCP authorization specification):
 * discovery from the 401, its client ID metadata document (served over https), PKCE, the dashboard's sign-in
 * and consent page in Chromium, tokens, a tool call, and revocation from the dashboard.
 */
let stack: Stack;
let browser: Browser;
let agentSite: https.Server;
let callbacks: http.Server;
let clientIdUrl: string;
let redirectUrl: string;
const callbackQueries: URLSearchParams[] = [];

beforeAll(async () => {
  const tls = issueTestCertificates(['agent']);
  // The agent's client ID metadata document, on https (the gateway trusts the test CA).
  agentSite = https.createServer({ cert: readFileSync(tls.certs.agent!.cert), key: readFileSync(tls.certs.agent!.key) }, (req, res) => {
    if (req.url === '/oauth/client.json')
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ client_id: clientIdUrl, client_name: 'E2E Agent', redirect_uris: [redirectUrl] }));
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => agentSite.listen(0, '127.0.0.1', resolve));
  clientIdUrl = `https://127.0.0.1:${(agentSite.address() as AddressInfo).port}/oauth/client.json`;
  // The agent's loopback redirect URI (a native client's).
  // Only the redirect itself counts: the browser also asks this origin for other things (its /favicon.ico).
  callbacks = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/callback') return void res.writeHead(404).end();
    callbackQueries.push(url.searchParams);
    res.writeHead(200, { 'content-type': 'text/plain' }).end('You can close this window.');
  });
  await new Promise<void>((resolve) => callbacks.listen(0, '127.0.0.1', resolve));
  redirectUrl = `http://127.0.0.1:${(callbacks.address() as AddressInfo).port}/callback`;
  stack = await startStack({ gatewayEnv: { WEB_FETCH_ALLOW_PRIVATE: 'true', NODE_EXTRA_CA_CERTS: tls.ca } });
  browser = await launchChromium();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  for (const server of [agentSite, callbacks]) {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  }
});

/** The agent's side of OAuth, kept in memory as an agent would keep it on disk. */
class AgentAuth implements OAuthClientProvider {
  authorizationUrl: URL | undefined;
  private saved: OAuthTokens | undefined;
  private verifier = '';
  private info: OAuthClientInformationMixed | undefined;
  private discovery: OAuthDiscoveryState | undefined;
  lastState = '';
  constructor(
    readonly clientMetadataUrl: string | undefined,
    private readonly redirect: string,
  ) {}
  get redirectUrl() {
    return this.redirect;
  }
  get clientMetadata(): OAuthClientMetadata {
    return { client_name: 'E2E Agent', redirect_uris: [this.redirect], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
  }
  state() {
    this.lastState = `st-${Math.random().toString(36).slice(2)}`;
    return this.lastState;
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveDiscoveryState(state: OAuthDiscoveryState) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 30_000, interval: 300 });
const mcpUrl = () => new URL('/mcp', stack.baseUrl);

describe('OAuth for MCP clients', () => {
  it('publishes its metadata and challenges an unauthenticated MCP request towards it', async () => {
    const unauthenticated = await stack.http('/mcp', {
      body: { jsonrpc: '2.0', id: 1, method: 'ping' },
      headers: { accept: 'application/json, text/event-stream' },
      localAddress: freshClientAddress(),
    });
    expectError(unauthenticated, 401, 'UNAUTHORIZED');
    expect(unauthenticated.headers['www-authenticate']).toContain(`Bearer resource_metadata="${stack.baseUrl}/.well-known/oauth-protected-resource/mcp"`);
    const prm = (await stack.http('/.well-known/oauth-protected-resource/mcp')).json;
    expect(prm).toMatchObject({ resource: `${stack.baseUrl}/mcp`, authorization_servers: [stack.baseUrl], bearer_methods_supported: ['header'] });
    const as = (await stack.http('/.well-known/oauth-authorization-server')).json;
    expect(as).toMatchObject({
      issuer: stack.baseUrl,
      code_challenge_methods_supported: ['S256'],
      client_id_metadata_document_supported: true,
      registration_endpoint: `${stack.baseUrl}/oauth/register`,
      token_endpoint_auth_methods_supported: ['none'],
    });
    // Dynamic registration: a public client; an http redirect URI off loopback is refused.
    const registered = await stack.http('/oauth/register', { body: { client_name: 'Registered', redirect_uris: ['http://localhost:9/cb'] }, localAddress: freshClientAddress() });
    expect(registered.status).toBe(201);
    expect(registered.json).toMatchObject({ client_id: expect.stringMatching(/^mcpc_/), token_endpoint_auth_method: 'none', redirect_uris: ['http://localhost:9/cb'] });
    const refused = await stack.http('/oauth/register', { body: { redirect_uris: ['http://agent.example/cb'] }, localAddress: freshClientAddress() });
    expect(refused.status).toBe(400);
    expect(refused.json.error).toBe('invalid_client_metadata');
    // A sign-in link whose redirect URI is not the client's is shown as invalid, never followed.
    const bad = await stack.http(`/oauth/authorize?${new URLSearchParams({ client_id: registered.json.client_id, redirect_uri: 'http://localhost:9/evil', response_type: 'code' })}`);
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('redirect_uri');
  });

  it('signs an agent in through the dashboard’s consent page, calls a tool with its token, and stops it when revoked', async () => {
    const ws = await createWorkspace(stack, { tier: 'pro' });
    const user = await inviteUser(stack, ws.workspaceId);
    const auth = new AgentAuth(clientIdUrl, redirectUrl);
    const firstTry = new StreamableHTTPClientTransport(mcpUrl(), { authProvider: auth });
    await expect(new Client({ name: 'e2e-agent', version: '1.0.0' }).connect(firstTry)).rejects.toBeInstanceOf(UnauthorizedError);
    const authorizationUrl = auth.authorizationUrl!;
    expect(authorizationUrl.href.startsWith(`${stack.baseUrl}/oauth/authorize?`)).toBe(true);
    expect(authorizationUrl.searchParams.get('client_id')).toBe(clientIdUrl);
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizationUrl.searchParams.get('resource')).toBe(`${stack.baseUrl}/mcp`);

    // The member: the link leads to the dashboard's sign-in, then the consent page.
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    const page = await context.newPage();
    page.on('dialog', (d) => void d.accept());
    await page.goto(authorizationUrl.href);
    await poll(() => page.getByRole('heading', { name: 'Sign in to the dashboard' }).isVisible()).toBe(true);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await poll(() => page.getByRole('heading', { name: 'Authorize an AI agent' }).isVisible()).toBe(true);
    await poll(() => page.getByRole('list', { name: 'Scopes asked for' }).textContent()).toContain('posts:write');
    expect(await page.locator('main').textContent()).toContain('E2E Agent');
    await screenshot(page, 'mcp-oauth-consent');
    await page.getByRole('button', { name: 'Allow' }).click();
    await poll(() => callbackQueries.length).toBe(1);
    const answer = callbackQueries[0]!;
    expect(answer.get('state')).toBe(auth.lastState);
    expect(answer.get('iss')).toBe(stack.baseUrl);
    expect(answer.get('code')).toMatch(/^mcp_code_/);

    // The agent: the code for tokens, then the MCP endpoint with them.
    await firstTry.finishAuth(answer);
    const tokens = auth.tokens()!;
    expect(tokens.access_token).toMatch(/^mcp_at_/);
    expect(tokens.refresh_token).toMatch(/^mcp_rt_/);
    const agent = new Client({ name: 'e2e-agent', version: '1.0.0' });
    await agent.connect(new StreamableHTTPClientTransport(mcpUrl(), { authProvider: auth }));
    const created = await agent.callTool({ name: 'create_post', arguments: { body: { post: { body: 'written by a signed-in agent' } } } });
    expect(created.isError, firstText(created)).toBeFalsy();
    const postId = (created.structuredContent as { post: { id: number } }).post.id;
    const { apiKey } = ws;
    expect((await stack.api(`/posts/${postId}`, { token: apiKey, localAddress: freshClientAddress() })).json.post.body).toBe('written by a signed-in agent');
    // The token is for the MCP endpoint only.
    expectError(await stack.api('/posts', { token: tokens.access_token, localAddress: freshClientAddress() }), 401, 'UNAUTHORIZED');
    await agent.close();

    // The member revokes it from the dashboard's AI agents page; the agent's next call is refused.
    await page.goto(`${stack.baseUrl}/dashboard/agents`);
    await poll(() => page.getByRole('heading', { name: 'E2E Agent' }).isVisible()).toBe(true);
    await screenshot(page, 'mcp-oauth-agents');
    await page.getByRole('button', { name: 'Revoke' }).click();
    await poll(() => page.getByText('No agent is authorized on this workspace.').isVisible()).toBe(true);
    await poll(async () => {
      const res = await stack.http('/mcp', {
        body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
        headers: { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
        token: tokens.access_token,
        localAddress: freshClientAddress(),
      });
      return res.status;
    }).toBe(401);
    // Its refresh token ended with the grant.
    const refreshed = await stack.http('/oauth/token', {
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, client_id: clientIdUrl }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      localAddress: freshClientAddress(),
    });
    expect(refreshed.status).toBe(400);
    expect(refreshed.json.error).toBe('invalid_grant');
    await context.close();
  });
});
