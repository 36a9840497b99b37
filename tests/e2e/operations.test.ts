import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { credentials, loadPackageDefinition, Metadata, status, type ServiceError } from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { AccountsServiceClient } from '@spa/contracts/accounts/v1/accounts';
import { checkHealth } from '@spa/grpc';
import { createWorkspace, dropDatabases, freePort, REPO_ROOT, startProcess, startStack, TEST_INFRA, uniqueName, type RunningProcess, type Stack } from '@spa/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TcpProxy } from '../support/tcp-proxy.js';
import { issueTestCertificates } from '../support/test-certificates.js';
import { OtlpReceiver } from '../support/otlp-receiver.js';

/** Polls until `condition` holds (or fails the test after `ms`). */
async function eventually(condition: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await condition().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const scrape = async (port: number, pathname = '/metrics') => {
  const res = await fetch(`http://127.0.0.1:${port}${pathname}`);
  return { status: res.status, text: await res.text() };
};

describe('the operations ports', () => {
  // One stack for both: its gateway's and its first publisher's operations ports are known in advance.
  let stack: Stack;
  let gatewayMetrics: number;
  let publisherMetrics: number;
  beforeAll(async () => {
    [gatewayMetrics, publisherMetrics] = [await freePort(), await freePort()];
    stack = await startStack({ publishing: true, gatewayEnv: { METRICS_PORT: String(gatewayMetrics) }, publisherEnv: { METRICS_PORT: String(publisherMetrics) } });
  });
  afterAll(async () => stack?.stop());

  describe('metrics on the operations port', () => {
    it('counts HTTP requests by route template and status, with runtime metrics, and no ids in labels', async () => {
      const ws = await createWorkspace(stack);
      const auth = { headers: { authorization: `Bearer ${ws.apiKey}` } };
      expect((await stack.api('/posts', auth)).status).toBe(200);
      expect((await stack.api('/posts/987654321', auth)).status).toBe(404);
      expect((await stack.api('/posts')).status).toBe(401);
      const { status: code, text } = await scrape(gatewayMetrics);
      expect(code).toBe(200);
      expect(text).toMatch(/http_server_duration_seconds_count\{[^}]*method="GET",route="\/posts",status="200"[^}]*\} [1-9]/);
      expect(text).toMatch(/http_server_duration_seconds_count\{[^}]*route="\/posts\/\{id\}",status="404"/);
      expect(text).toMatch(/rpc_client_duration_seconds_count\{[^}]*method="authenticate",code="OK"/);
      expect(text).toContain('nodejs_eventloop_lag_seconds');
      expect(text).toContain('nodejs_gc_duration_seconds');
      expect(text).toContain('service="gateway"');
      expect(text).not.toContain('987654321');
      expect((await scrape(gatewayMetrics, '/readyz')).status).toBe(200);
      expect((await stack.http('/readyz')).status).toBe(200);
    });
  });

  describe('business signals', () => {
    it('counts publish outcomes per platform and the lag from scheduled_at, with bounded labels', async () => {
      const ws = await createWorkspace(stack);
      const account = await stack.accounts.connectSocialAccount({ workspaceId: ws.workspaceId, platform: 'twitter', username: 'ops_signal', sandbox: true });
      const auth = { headers: { authorization: `Bearer ${ws.apiKey}` } };
      const made = await stack.api('/posts', {
        ...auth,
        body: {
          post: {
            body: 'signals for the operators',
            scheduled_at: new Date(Date.now() + 1_500).toISOString(),
            post_contents: [{ platform: 'twitter', body: 'signals for the operators' }],
            post_accounts: [{ social_account_id: account.socialAccountId }],
          },
        },
      });
      expect(made.status, made.text).toBe(201);
      await eventually(async () => (await stack.api(`/posts/${made.json.post.id}`, auth)).json.post.status === 'posted', 60_000);
      await eventually(async () => /publish_outcomes_total\{[^}]*platform="twitter",outcome="posted",error_class="none"[^}]*\} 1/.test((await scrape(publisherMetrics)).text));
      const { text } = await scrape(publisherMetrics);
      expect(text).toMatch(/publish_lag_seconds_count\{[^}]*platform="twitter"[^}]*\} 1/);
      // Bounded labels: the business series carry only closed sets (never a post, account or workspace id).
      const labelKeys = [...text.matchAll(/^(?:publish_outcomes_total|publish_lag_seconds_count)\{([^}]*)\}/gm)].flatMap((m) => [...m[1]!.matchAll(/(\w+)="/g)].map((k) => k[1]));
      expect(new Set(labelKeys)).toEqual(new Set(['service', 'platform', 'outcome', 'error_class']));
    });
  });
});

describe('health that follows the store, and reflection', () => {
  let proxy: TcpProxy;
  let accounts: RunningProcess;
  let metricsPort: number;
  const db = uniqueName('t_ops_accounts');
  beforeAll(async () => {
    const store = new URL(TEST_INFRA.mongoUrl);
    proxy = await TcpProxy.start(await freePort(), { host: store.hostname, port: Number(store.port || 27017) });
    metricsPort = await freePort();
    accounts = await startProcess('accounts', 'services/accounts/dist/main.js', {
      MONGO_URL: `mongodb://127.0.0.1:${proxy.port}/?serverSelectionTimeoutMS=1000`,
      MONGO_DB: db,
      GRPC_PORT: '0',
      METRICS_PORT: String(metricsPort),
      SECRETS_KEY: 'operations-test-secrets-key-0123456789',
    });
  });
  afterAll(async () => {
    await accounts?.stop();
    await proxy?.down();
    await dropDatabases([db]);
  });

  it('says NOT_SERVING while the store is unreachable and SERVING again once it is back', async () => {
    expect(await checkHealth(accounts.address)).toBe('SERVING');
    expect((await scrape(metricsPort, '/readyz')).status).toBe(200);
    await proxy.down();
    await eventually(async () => (await checkHealth(accounts.address)) === 'NOT_SERVING');
    expect((await scrape(metricsPort, '/readyz')).status).toBe(503);
    expect((await scrape(metricsPort, '/healthz')).status).toBe(200); // liveness stays cheap and true
    expect((await scrape(metricsPort)).text).toMatch(/dependency_up\{[^}]*dependency="mongo"[^}]*\} 0/);
    await proxy.up();
    await eventually(async () => (await checkHealth(accounts.address)) === 'SERVING', 30_000);
    expect((await scrape(metricsPort, '/readyz')).status).toBe(200);
  });

  it('counts RPCs by method and code', async () => {
    const client = new AccountsServiceClient(accounts.address, credentials.createInsecure());
    await new Promise<void>((resolve, reject) => client.createWorkspace({ name: 'ops', tier: 'pro', subscriptionStatus: 'active' }, (err) => (err ? reject(err) : resolve())));
    client.close();
    const { text } = await scrape(metricsPort);
    expect(text).toMatch(/rpc_server_duration_seconds_count\{[^}]*method="accounts\.v1\.AccountsService\/CreateWorkspace",code="OK"[^}]*\} [1-9]/);
  });

  it('lists its services through gRPC server reflection', async () => {
    const protoDir = path.join(REPO_ROOT, 'node_modules/@grpc/reflection/build/proto');
    const pkg = loadPackageDefinition(loadSync('grpc/reflection/v1/reflection.proto', { includeDirs: [protoDir] })) as any;
    const client = new pkg.grpc.reflection.v1.ServerReflection(accounts.address, credentials.createInsecure());
    const call = client.ServerReflectionInfo();
    const ask = (request: object) =>
      new Promise<any>((resolve, reject) => {
        call.once('data', resolve);
        call.once('error', reject);
        call.write(request);
      });
    // The proto files are parsed on this first call (not at start); the same stream answers both.
    const answer = await ask({ listServices: '' });
    const described = await ask({ fileContainingSymbol: 'accounts.v1.AccountsService' });
    call.end();
    client.close();
    const names = answer.listServicesResponse.service.map((s: { name: string }) => s.name);
    expect(names).toContain('accounts.v1.AccountsService');
    expect(names).not.toContain('posts.v1.PostsService');
    expect(described.fileDescriptorResponse.fileDescriptorProto.length).toBeGreaterThan(0);
  });
});

describe('gRPC over mutual TLS with an allow-list of callers', () => {
  const issued = issueTestCertificates(['accounts', 'gateway', 'posts']);
  const db = uniqueName('t_mtls_accounts');
  let accounts: RunningProcess;
  beforeAll(async () => {
    accounts = await startProcess('accounts', 'services/accounts/dist/main.js', {
      MONGO_URL: TEST_INFRA.mongoUrl,
      MONGO_DB: db,
      GRPC_PORT: '0',
      SECRETS_KEY: 'operations-test-secrets-key-0123456789',
      GRPC_TLS_CERT: issued.certs.accounts!.cert,
      GRPC_TLS_KEY: issued.certs.accounts!.key,
      GRPC_TLS_CA: issued.ca,
      GRPC_ALLOWED_CALLERS: 'gateway,admin',
    });
  });
  afterAll(async () => {
    await accounts?.stop();
    await dropDatabases([db]);
    rmSync(issued.dir, { recursive: true, force: true });
  });

  const clientAs = (name: string | undefined) => {
    const ca = readFileSync(issued.ca);
    const creds = name ? credentials.createSsl(ca, readFileSync(issued.certs[name]!.key), readFileSync(issued.certs[name]!.cert)) : credentials.createInsecure();
    return new AccountsServiceClient(accounts.address, creds);
  };
  const createWorkspaceAs = (name: string | undefined) =>
    new Promise<ServiceError | null>((resolve) => {
      const client = clientAs(name);
      client.createWorkspace({ name: 'mtls', tier: 'pro', subscriptionStatus: 'active' }, new Metadata(), { deadline: Date.now() + 5_000 }, (err) => {
        client.close();
        resolve(err);
      });
    });

  it('serves an allowed caller', async () => {
    expect(await createWorkspaceAs('gateway')).toBeNull();
  });

  it('refuses a caller of the same CA that is not on its list', async () => {
    const err = await createWorkspaceAs('posts');
    expect(err?.code).toBe(status.PERMISSION_DENIED);
    expect(err?.details).toContain('posts');
  });

  it('refuses a plaintext client at the handshake', async () => {
    const err = await createWorkspaceAs(undefined);
    expect(err?.code).toBe(status.UNAVAILABLE);
  });

  it('stops at start-up naming what a partial TLS configuration lacks', async () => {
    await expect(
      startProcess('accounts-bad-tls', 'services/accounts/dist/main.js', {
        MONGO_URL: TEST_INFRA.mongoUrl,
        MONGO_DB: db,
        GRPC_PORT: '0',
        SECRETS_KEY: 'operations-test-secrets-key-0123456789',
        GRPC_TLS_CERT: issued.certs.accounts!.cert,
      }),
    ).rejects.toThrow(/GRPC_TLS_KEY: required when any GRPC_TLS_\* is set[\s\S]*GRPC_TLS_CA/);
  });
});

describe('traces', () => {
  // One stack exporting its spans to the receiver (each test follows a trace id of its own).
  let stack: Stack;
  let receiver: OtlpReceiver;
  let hooks: import('node:http').Server;
  const delivered: string[] = [];
  beforeAll(async () => {
    receiver = await OtlpReceiver.start();
    const otlp = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url };
    stack = await startStack({ publishing: true, webhooks: true, gatewayEnv: otlp, serviceEnv: otlp });
    const { createServer } = await import('node:http');
    hooks = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        delivered.push(String(req.headers['x-request-id'] ?? ''));
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
    hooks?.closeAllConnections();
    await new Promise((resolve) => hooks?.close(resolve));
  });

  describe('traces across processes', () => {
    it('continues the caller’s W3C trace through the gateway into the services it calls', async () => {
      const ws = await createWorkspace(stack);
      const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
      const res = await stack.api('/posts', { headers: { authorization: `Bearer ${ws.apiKey}`, traceparent: `00-${traceId}-00f067aa0ba902b7-01` } });
      expect(res.status).toBe(200);
      await eventually(async () => {
        const services = new Set(receiver.spans.filter((s) => s.traceId === traceId).map((s) => s.service));
        return services.has('gateway') && services.has('accounts') && services.has('posts');
      });
      const spans = receiver.spans.filter((s) => s.traceId === traceId);
      const http = spans.find((s) => s.service === 'gateway' && s.name === 'GET /posts')!;
      expect(http.parentSpanId).toBe('00f067aa0ba902b7');
      expect(http.attributes['spa.request_id']).toBe(res.headers['x-request-id']);
      const rpc = spans.find((s) => s.service === 'posts')!;
      expect(rpc.name).toMatch(/^posts\.v1\.PostsService\//);
      expect(rpc.parentSpanId).toBe(http.spanId);
    });
  });

  describe('one trace from the API call to the webhook delivery', () => {
    it('spans API call → posts → scheduler → publisher → platform call → posts → webhooks consumer → delivery', async () => {
      const ws = await createWorkspace(stack);
      const port = (hooks.address() as import('node:net').AddressInfo).port;
      const hook = await stack.admin(['webhook', 'create', '--workspace', String(ws.workspaceId), '--url', `http://127.0.0.1:${port}/hook`, '--events', 'post.published']);
      expect(hook.code, hook.stderr).toBe(0);
      const account = await stack.accounts.connectSocialAccount({ workspaceId: ws.workspaceId, platform: 'twitter', username: 'trace_me', sandbox: true });
      const traceId = '0af7651916cd43dd8448eb211c80319c';
      const made = await stack.api('/posts', {
        headers: { authorization: `Bearer ${ws.apiKey}`, traceparent: `00-${traceId}-b7ad6b7169203331-01` },
        body: {
          post: {
            body: 'one trace, end to end',
            scheduled_at: new Date(Date.now() + 1_500).toISOString(),
            post_contents: [{ platform: 'twitter', body: 'one trace, end to end' }],
            post_accounts: [{ social_account_id: account.socialAccountId }],
          },
        },
      });
      expect(made.status, made.text).toBe(201);
      await eventually(async () => delivered.length > 0, 60_000);
      const wanted = ['POST /posts', 'publish job', 'twitter publish', 'post terminal event', 'webhook delivery'];
      await eventually(async () => {
        const names = new Set(receiver.spans.filter((s) => s.traceId === traceId).map((s) => s.name));
        return wanted.every((n) => names.has(n));
      }, 30_000);
      const spans = receiver.spans.filter((s) => s.traceId === traceId);
      expect(new Set(spans.map((s) => s.service))).toEqual(new Set(['gateway', 'accounts', 'posts', 'publisher', 'webhooks']));
      // Every span but the caller's root has its parent in the same trace: nothing started a trace of its own.
      const ids = new Set(spans.map((s) => s.spanId));
      expect(spans.filter((s) => s.parentSpanId && s.parentSpanId !== 'b7ad6b7169203331' && !ids.has(s.parentSpanId))).toEqual([]);
    });
  });
});
