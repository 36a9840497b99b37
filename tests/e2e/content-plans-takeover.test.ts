import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWorkspace, dropDatabases, freshClientAddress, request, startProcess, startStack, uniqueName, type RunningProcess, type Stack, type TestWorkspace } from '@spa/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * A plan run whose owner dies mid-run is resumed by another replica once its lease ends, and the run still
 * stores exactly the expected posts. The model is a loopback OpenAI-compatible server (the documented
 * /v1/chat/completions shape) that answers after 1.5 s, so the run is slow enough to kill its owner inside it.
 */
const WORDS = 'river stone lantern orchard copper meadow harbor signal canvas thunder maple quartz ember glacier saffron compass'.split(' ');
let completions = 0;
const ai: Server = createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    completions += 1;
    const n = completions;
    const words = Array.from({ length: 9 }, (_, i) => WORDS[(n * 7 + i * 5) % WORDS.length]).join(' ');
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: `chatcmpl-${n}`,
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: 'slow-model',
          choices: [{ index: 0, message: { role: 'assistant', content: `Field note ${n}: ${words}. What would you add?` }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 50, completion_tokens: 20, total_tokens: 70 },
        }),
      );
    }, 1_500);
  });
});

const generationDb = uniqueName('t_generation_takeover');
let stack: Stack;
let generationEnv: Record<string, string>;
let replica: RunningProcess | undefined;
let ws: TestWorkspace;

beforeAll(async () => {
  await new Promise<void>((resolve) => ai.listen(0, '127.0.0.1', resolve));
  generationEnv = {
    MONGO_DB: generationDb,
    PLANS_POLL_INTERVAL_MS: '300',
    PLANS_RUN_LEASE_MS: '3000',
    AI_BASE_URL: `http://127.0.0.1:${(ai.address() as AddressInfo).port}/v1`,
    AI_API_KEY: 'test-key',
    AI_MODELS: 'slow-model',
    AI_FALLBACK_BUILTIN: 'false',
  };
  stack = await startStack({ generationEnv });
  ws = await createWorkspace(stack);
}, 120_000);
afterAll(async () => {
  await replica?.stop();
  await stack?.stop();
  await dropDatabases([generationDb]);
  await new Promise((resolve) => ai.close(resolve));
});

describe('plan run takeover', () => {
  it('a run whose owner is killed mid-run is finished by the other replica with exactly the expected posts', async () => {
    replica = await startProcess('generation-2', 'services/generation/dist/main.js', {
      MONGO_URL: 'mongodb://127.0.0.1:27017',
      NATS_URL: 'nats://127.0.0.1:4222',
      GRPC_PORT: '0',
      ACCOUNTS_ADDR: stack.accountsAddr,
      POSTS_ADDR: stack.postsAddr,
      MEDIA_ADDR: stack.mediaAddr,
      IMAGE_WEEK_ADDR: stack.imageWeekAddr,
      ...generationEnv,
    });
    // A second gateway that talks to the surviving replica.
    const gateway2 = await stack.startGateway({ GENERATION_ADDR: replica.address });
    const api2 = (path: string, opts: Parameters<typeof request>[2] = {}) => request(`http://${gateway2.address}`, `/api/v1${path}`, { token: ws.apiKey, localAddress: freshClientAddress(), ...opts });

    const { socialAccountId: x } = await stack.accounts.connectSocialAccount({ workspaceId: ws.workspaceId, platform: 'twitter', username: 'x-takeover', sandbox: true });
    const created = await stack.api('/content_plans', {
      token: ws.apiKey,
      localAddress: freshClientAddress(),
      method: 'POST',
      body: {
        content_plan: { name: 'Takeover', schedule_day: 1, schedule_time: '09:00', active: false, channels: [{ social_account_id: x, posts_per_day: 4, angles: ['one', 'two', 'three', 'four'] }] },
      },
    });
    expect(created.status, created.text).toBe(201);
    const planId = created.json.content_plan.id;

    // The run starts on the stack's generation process (the first gateway's backend) ...
    const started = await stack.api(`/content_plans/${planId}/run`, { token: ws.apiKey, localAddress: freshClientAddress(), method: 'POST' });
    expect(started.status, started.text).toBe(202);
    const runId = started.json.run.id;
    const postCount = async () => (await api2('/posts?source=content_plan&status=draft&limit=200')).json.posts.length as number;
    // ... which is killed once the first post is stored, in the middle of writing the next ones.
    for (const until = Date.now() + 30_000; (await postCount()) < 1;) {
      if (Date.now() > until) throw new Error('the run stored no post');
      await new Promise((r) => setTimeout(r, 100));
    }
    const owner = stack.processes.find((p) => p.name === 'generation')!;
    await owner.stop('SIGKILL');
    const storedAtKill = await postCount();
    expect(storedAtKill).toBeLessThan(4);

    // The survivor takes the run over when its lease ends and finishes it.
    let plan: Record<string, any> | undefined;
    for (const until = Date.now() + 60_000; ;) {
      const res = await api2(`/content_plans/${planId}`);
      expect(res.status, res.text).toBe(200);
      plan = res.json.content_plan;
      if (plan!.last_run?.status !== 'running') break;
      if (Date.now() > until) throw new Error(`run not resumed: ${res.text}`);
      await new Promise((r) => setTimeout(r, 300));
    }
    expect(plan!.last_run).toMatchObject({ id: runId, status: 'completed', posts_created: 4, items_failed: 0 });
    const posts = (await api2('/posts?source=content_plan&status=draft&limit=200')).json.posts as Array<{ body: string }>;
    expect(posts).toHaveLength(4);
    expect(new Set(posts.map((p) => p.body)).size).toBe(4);
    for (const p of posts) expect(p.body).toMatch(/^Field note \d+:/);
  }, 150_000);
});
