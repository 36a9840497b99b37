import { randomUUID } from 'node:crypto';
import { publicEvent, publishPublicEvent } from '@spa/events';
import { connectNats, jetstream } from '@spa/nats';
import { createWorkspace, freshClientAddress, startStack, TEST_INFRA, uniqueName, type Stack, type TestWorkspace } from '@spa/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropStackEvents } from '../support/events.js';

/**
 * GET /events over 10,000 events: pages follow each other in order, without a gap or a repeat, while new events
 * arrive; reading on from any cursor gives exactly what followed it. The workspace's log is seeded straight into
 * the EVENTS stream (as the owners' relays publish, 10,000 at once), and real posts are created meanwhile.
 */
let stack: Stack;
let ws: TestWorkspace;
const SEEDED = 10_000;

beforeAll(async () => {
  stack = await startStack({ webhooks: true });
  ws = await createWorkspace(stack, { tier: 'pro' });
}, 300_000);
afterAll(async () => {
  await stack?.stop();
  if (stack) await dropStackEvents(stack.jobsNamespace);
}, 120_000);

const call = (path: string) => stack.api(path, { token: ws.apiKey, localAddress: freshClientAddress() });

async function page(after: string, limit: number, kinds = ''): Promise<{ events: Array<Record<string, any>>; next_cursor: string; has_more: boolean }> {
  const res = await call(`/events?after=${after}&limit=${limit}${kinds ? `&kinds=${kinds}` : ''}`);
  expect(res.status, res.text).toBe(200);
  return res.json;
}

/** Publishes the seeded events in order, a window of publishes at a time. */
async function seed(): Promise<string[]> {
  const nc = await connectNats(TEST_INFRA.natsUrl, 'events-log-seed');
  const js = jetstream(nc);
  const ids: string[] = [];
  try {
    const start = Date.now();
    for (let i = 0; i < SEEDED; i += 500) {
      const batch = Array.from({ length: Math.min(500, SEEDED - i) }, (_, j) => {
        const n = i + j;
        const kind = n % 2 ? 'post.updated' : 'post.created';
        const data = { post_id: 1_000_000 + n, status: 'draft', scheduled_at: null, ...(kind === 'post.updated' ? { previous_status: 'draft' } : {}) };
        return publicEvent(randomUUID(), ws.workspaceId, kind, new Date(start + n), data);
      });
      ids.push(...batch.map((e) => e.id));
      // Issued in order over one connection: stored in order.
      await Promise.all(batch.map((e) => publishPublicEvent(js, stack.jobsNamespace, e)));
    }
  } finally {
    await nc.close();
  }
  return ids;
}

describe('GET /events across 10,000 events', () => {
  it('pages in order without gaps or repeats while new events arrive, and resumes from any cursor', async () => {
    const seeded = await seed();
    const { socialAccountId } = await stack.accounts.connectSocialAccount({ workspaceId: ws.workspaceId, platform: 'mastodon', username: uniqueName('log'), sandbox: true });

    // New events while the log is read: real posts, one after another.
    const made: number[] = [];
    let writing = true;
    const writer = (async () => {
      for (let i = 0; i < 25; i++) {
        const res = await stack.api('/posts', {
          token: ws.apiKey,
          localAddress: freshClientAddress(),
          body: { post: { body: `While reading ${i}`, post_accounts: [{ social_account_id: socialAccountId }] } },
        });
        expect(res.status, res.text).toBe(201);
        made.push(res.json.post.id as number);
      }
      writing = false;
    })();

    const events: Array<Record<string, any>> = [];
    const readDeadline = Date.now() + 90_000;
    let after = '0';
    let pages = 0;
    for (;;) {
      const p = await page(after, 1000);
      pages += 1;
      events.push(...p.events);
      expect(p.next_cursor).toBe(p.events.length ? p.events.at(-1)!.cursor : after);
      after = p.next_cursor;
      // Done once the writer has finished, every event it caused has been read (the relays publish a change's
      // event a moment after it lands, later on a loaded machine) and a read after that found nothing more.
      const expected = SEEDED + 1 + made.length; // + account.connected
      if (!p.has_more && (writing || events.length < expected)) {
        expect(Date.now(), 'events still missing from the log').toBeLessThan(readDeadline);
        await new Promise((r) => setTimeout(r, 200));
      } else if (!p.has_more) {
        const last = await page(after, 1000);
        events.push(...last.events);
        after = last.next_cursor;
        if (!last.events.length) break;
      }
    }
    await writer;
    expect(pages).toBeGreaterThanOrEqual(10);

    const cursors = events.map((e) => Number(e.cursor));
    for (let i = 1; i < cursors.length; i++) expect(cursors[i]!, `cursor ${i}`).toBeGreaterThan(cursors[i - 1]!);
    const ids = events.map((e) => e.id as string);
    expect(new Set(ids).size).toBe(ids.length);
    // Every seeded event, in the order published.
    const seededIds = new Set(seeded);
    expect(ids.filter((id) => seededIds.has(id))).toEqual(seeded);
    // Every real post's creation, once.
    const created = events.filter((e) => e.event === 'post.created' && made.includes(e.post_id)).map((e) => e.post_id);
    expect(created.sort((a, b) => a - b)).toEqual([...made].sort((a, b) => a - b));
    expect(events.length).toBe(SEEDED + 1 + made.length); // + account.connected

    // Resuming from any cursor gives exactly what followed it.
    for (const at of [0, 4_999, 9_998]) {
      const resumed = await page(events[at]!.cursor as string, 7);
      expect(resumed.events.map((e) => e.id)).toEqual(ids.slice(at + 1, at + 8));
      expect(resumed.has_more).toBe(true);
    }
    const end = await page(events.at(-1)!.cursor as string, 100);
    expect(end).toEqual({ events: [], next_cursor: events.at(-1)!.cursor, has_more: false });

    // One kind: every other seeded event, in order.
    const updates: string[] = [];
    for (let cursor = '0'; ;) {
      const p = await page(cursor, 1000, 'post.updated');
      updates.push(...p.events.map((e) => e.id as string));
      cursor = p.next_cursor;
      if (!p.has_more) break;
    }
    expect(updates).toEqual(seeded.filter((_, i) => i % 2 === 1));
  }, 600_000);
});
