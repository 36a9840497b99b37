import { randomBytes, randomUUID } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import { publicEvent, publishPublicEvent } from '@spa/events';
import { connectNats, ensureStream, EVENTS_STREAM, jetstream, type NatsConnection } from '@spa/nats';
import type { EventKind } from '@spa/vocabulary';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StreamEventLog } from './event-log.js';

/**
 * The event log read from the real EVENTS stream: three workspaces interleaved at very different densities (most
 * of the stream, one event in seven, one in a hundred), four kinds; every page from any cursor, of any size, with
 * or without kinds, is exactly the events that follow the cursor, in order.
 */
let nc: NatsConnection;
const namespace = `t_log_${randomBytes(4).toString('hex')}`;
const KINDS: EventKind[] = ['post.created', 'post.updated', 'account.connected', 'site_push.consumed'];
const published: Array<{ seq: number; id: string; workspaceId: number; kind: EventKind }> = [];

// A deterministic sequence (so a failure can be replayed).
let state = 42;
const random = () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;

beforeAll(async () => {
  nc = await connectNats(process.env.NATS_URL ?? 'nats://127.0.0.1:4222', 'event-log-test');
  await ensureStream(nc, EVENTS_STREAM);
  const js = jetstream(nc);
  for (let i = 0; i < 3_000; i += 500) {
    const batch = Array.from({ length: 500 }, () => {
      const r = random();
      const workspaceId = r < 0.01 ? 3 : r < 0.15 ? 2 : 1;
      return publicEvent(randomUUID(), workspaceId, KINDS[Math.floor(random() * KINDS.length)]!, new Date(), { n: i });
    });
    await Promise.all(batch.map((e) => publishPublicEvent(js, namespace, e)));
    for (const e of batch) published.push({ seq: 0, id: e.id, workspaceId: e.workspaceId, kind: e.kind });
  }
  // Each event's place in the stream, read back once.
  const jsm = await jetstreamManager(nc);
  const seqs = new Map<string, number>();
  for (let seq = 1; ;) {
    const m = await jsm.direct.getMessage(EVENTS_STREAM.name, { seq, next_by_subj: `events.${namespace}.>` });
    if (!m) break;
    seqs.set(m.header.get('Nats-Msg-Id'), m.seq);
    seq = m.seq + 1;
  }
  for (const p of published) p.seq = seqs.get(p.id)!;
}, 120_000);
afterAll(async () => {
  await (await jetstreamManager(nc)).streams.purge(EVENTS_STREAM.name, { filter: `events.${namespace}.>` }).catch(() => undefined);
  await nc.drain();
});

describe('the event log on the EVENTS stream', () => {
  it('answers exactly the events after any cursor, in order, for dense and sparse workspaces, with and without kinds', async () => {
    const log = new StreamEventLog(nc, namespace);
    expect(published.every((p) => p.seq > 0)).toBe(true);
    for (const workspaceId of [1, 2, 3]) {
      for (const kinds of [[], ['post.updated'], ['account.connected', 'site_push.consumed']] as EventKind[][]) {
        const all = published.filter((p) => p.workspaceId === workspaceId && (!kinds.length || kinds.includes(p.kind)));
        const cursors = [0, ...[0.1, 0.5, 0.9].map((f) => all[Math.floor(all.length * f)]?.seq ?? 0)];
        for (const after of cursors) {
          for (const limit of [1, 7, 1_000]) {
            const expected = all.filter((p) => p.seq > after).slice(0, limit);
            const page = await log.read(workspaceId, after, kinds, limit);
            expect(
              page.events.map((e) => e.event.id),
              `workspace ${workspaceId}, kinds ${kinds.join(',')}, after ${after}, limit ${limit}`,
            ).toEqual(expected.map((p) => p.id));
            expect(page.events.map((e) => e.cursor)).toEqual(expected.map((p) => p.seq));
            expect(page.hasMore).toBe(all.filter((p) => p.seq > after).length > limit);
            expect(page.nextCursor).toBe(expected.at(-1)?.seq ?? after);
          }
        }
      }
    }
  }, 120_000);
});
