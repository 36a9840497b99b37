import type { Stack } from '@spa/testing';

/** Creates `count` draft posts through the gateway (drafts need no social accounts). */
export async function seedPosts(stack: Stack, apiKey: string, count: number): Promise<void> {
  for (let i = 1; i <= count; i++) {
    const res = await stack.api('/posts', { token: apiKey, body: { post: { body: `bench post ${i}` } } });
    if (res.status !== 201) throw new Error(`seeding post ${i} failed: HTTP ${res.status} ${res.text}`);
  }
}

/** Reads the page the gateway scenario will request, to show it returns real rows. */
export async function describeListPage(stack: Stack, apiKey: string, path: string): Promise<string> {
  const res = await stack.api(path, { token: apiKey });
  if (res.status !== 200) throw new Error(`GET /api/v1${path} failed: HTTP ${res.status} ${res.text}`);
  const body = res.json as { posts?: unknown[]; meta?: { total_count?: number } };
  return `GET /api/v1${path} returns ${body.posts?.length ?? 0} of ${body.meta?.total_count ?? '?'} posts (${res.text.length} bytes)`;
}
