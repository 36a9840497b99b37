/**
 * Publishing benchmark: N posts due at the same instant, each to 3 sandbox accounts (X, Mastodon,
 * Bluesky) whose API answers after 50 ms; the real posts (scheduler), publisher, accounts and
 * sandbox processes. Prints the time until every post is terminal and the lag from `scheduled_at`
 * to the platform call, with one and with two publishers. Asserts nothing.
 */
import { createWorkspace, request, startStack, type Stack } from '@spa/testing';
import { percentile } from './stats.js';

const PLATFORMS = ['twitter', 'mastodon', 'bluesky'] as const;

interface Run {
  publishers: number;
  posts: number;
  seconds: number;
  lagP50: number;
  lagP99: number;
  targetsPerSecond: number;
}

async function runOnce(posts: number, publishers: number): Promise<Run> {
  // Client addresses vary per request (X-Forwarded-For), so the per-IP limit does not throttle the bench.
  const stack: Stack = await startStack({ publishing: true, gatewayEnv: { TRUST_PROXY: '1' } });
  try {
    for (let i = 1; i < publishers; i++) await stack.startPublisher();
    await request(stack.sandboxUrl!, '/_sandbox/latency', { body: { ms: 50 } });
    const ws = await createWorkspace(stack);
    const accounts = await Promise.all(
      PLATFORMS.map(async (platform) => (await stack.accounts.connectSocialAccount({ workspaceId: ws.workspaceId, platform, username: `bench_${platform}`, sandbox: true })).socialAccountId),
    );
    // Creating the posts takes a while on this store: make them due once they are all in.
    const due = new Date(Date.now() + 5_000 + posts * 40);
    for (let start = 0; start < posts; start += 100) {
      const count = Math.min(100, posts - start);
      const res = await stack.api('/posts/bulk', {
        token: ws.apiKey,
        headers: { 'x-forwarded-for': `10.9.${start / 100}.1` },
        body: { posts: Array.from({ length: count }, (_, i) => ({ body: `bench ${start + i}`, scheduled_at: due.toISOString(), post_accounts: accounts.map((id) => ({ social_account_id: id })) })) },
      });
      if (res.status !== 201) throw new Error(`bulk create failed: ${res.status} ${res.text}`);
    }
    const wait = due.getTime() - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    let done = 0;
    for (let poll = 0; done < posts; poll++) {
      await new Promise((r) => setTimeout(r, 500));
      const res = await stack.api('/posts?status=posted,failed,partial&limit=1', { token: ws.apiKey, headers: { 'x-forwarded-for': `10.8.${Math.floor(poll / 250)}.${poll % 250}` } });
      done = res.json.meta.total_count;
      if (Date.now() - due.getTime() > 600_000) throw new Error(`only ${done}/${posts} terminal after 10 minutes`);
    }
    const seconds = (Date.now() - due.getTime()) / 1000;
    const lags: number[] = [];
    for (const platform of PLATFORMS) {
      const remote = (await request(stack.sandboxUrl!, `/_sandbox/posts?platform=${platform}`)).json.posts as Array<{ text: string; createdAt: string }>;
      for (const p of remote) if (p.text.startsWith('bench ')) lags.push(Date.parse(p.createdAt) - due.getTime());
    }
    const sorted = Float64Array.from(lags).sort();
    return { publishers, posts, seconds, lagP50: percentile(sorted, 0.5), lagP99: percentile(sorted, 0.99), targetsPerSecond: lags.length / seconds };
  } finally {
    await stack.stop();
  }
}

export async function benchPublishing(posts = Number(process.env.BENCH_PUBLISH_POSTS ?? 300)): Promise<void> {
  const runs: Run[] = [];
  for (const publishers of [1, 2]) {
    process.stderr.write(`bench: publishing ${posts} posts x ${PLATFORMS.length} targets with ${publishers} publisher(s)\n`);
    runs.push(await runOnce(posts, publishers));
  }
  console.log(`\npublishing: ${posts} posts due at once, each to ${PLATFORMS.join(', ')} (sandbox answers after 50 ms)\n`);
  console.log('| publishers | time until all terminal | targets/s | lag scheduled_at -> platform call p50 | p99 |');
  console.log('|---|---|---|---|---|');
  for (const r of runs) {
    console.log(`| ${r.publishers} | ${r.seconds.toFixed(1)} s | ${r.targetsPerSecond.toFixed(1)} | ${(r.lagP50 / 1000).toFixed(1)} s | ${(r.lagP99 / 1000).toFixed(1)} s |`);
  }
}
