/**
 * Tracks of the terminal events handled at once reach the store together (one insert command), each
 * with its fetch schedule, and a repeated event's are duplicates: reported, never written twice. The
 * dispatcher's read of a slot is served by an index on the local store.
 */
import { randomBytes } from 'node:crypto';
import { commandsIssuedBy, connectMongo, readsIssuedBy, sequentialScans, syncIndexes, type Connection } from '@spa/mongo';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Track } from '../domain/model.js';
import { MongoAnalyticsStore } from './mongo-store.js';

let connection: Connection;
let store: MongoAnalyticsStore;

beforeAll(async () => {
  connection = await connectMongo(process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017', `t_analytics_inserts_${randomBytes(4).toString('hex')}`);
  store = new MongoAnalyticsStore(connection);
  await syncIndexes(connection);
}, 60_000);

afterAll(async () => {
  await connection?.dropDatabase();
  await connection?.close();
});

const track = (postAccountId: number): Track => ({
  postAccountId,
  workspaceId: 7,
  postId: 1_000 + Math.floor(postAccountId / 3),
  socialAccountId: 70 + (postAccountId % 3),
  platform: 'mastodon',
  platformPostId: `m${postAccountId}`,
  postedAt: new Date('2026-11-26T12:00:00Z'),
  status: 'active',
});

describe('analytics store: group-committed tracks, each with its fetch schedule', () => {
  it('concurrent tracks go in one insert; a repeated one answers false and keeps the first', async () => {
    const ids = Array.from({ length: 12 }, (_, i) => 100 + i);
    let answers: boolean[] = [];
    const inserts = await commandsIssuedBy(connection, 'insert', async () => {
      answers = await Promise.all([...ids.map((id) => store.insertTrack(track(id))), store.insertTrack({ ...track(100), platformPostId: 'other' })]);
    });
    expect(inserts).toEqual(['tracks']);
    expect(answers.slice(0, 12)).toEqual(ids.map(() => true));
    expect(answers[12]).toBe(false);
    expect((await store.getTrack(100))?.platformPostId).toBe('m100');
    expect(await store.insertTrack(track(105))).toBe(false);
    expect((await Promise.all(ids.map((id) => store.getTrack(id)))).map((t) => t?.postAccountId)).toEqual(ids);
  });

  it("a slot's fetches are found by the tracks' schedules (an index read), inactive tracks left out; fetches stored one document each before are still found", async () => {
    const scheduled = (postAccountId: number): Track => ({
      ...track(postAccountId),
      schedule: [1, 2].map((n) => ({ n, dueAt: new Date(Date.UTC(2026, 10, 27, n)), slot: 9_000 + n })),
    });
    const inserts = await commandsIssuedBy(connection, 'insert', () => Promise.all([200, 201, 202, 200].map((id) => store.insertTrack(scheduled(id)))));
    expect(inserts).toEqual(['tracks']);
    expect((await store.getTrack(201))?.schedule).toEqual(scheduled(201).schedule);
    await store.saveTrack({ ...scheduled(202), status: 'disconnected' });
    // A track stored before schedules were kept on it, and its fetch as it was stored then.
    await store.insertTrack(track(203));
    await store.models.Fetch.collection.insertOne({ _id: '203:1', post_account_id: 203, n: 1, due_at: new Date(Date.UTC(2026, 10, 27, 1)), slot: 9_001 } as never);

    let inSlot: Awaited<ReturnType<typeof store.fetchesInSlot>> = [];
    const reads = await readsIssuedBy(connection, async () => {
      inSlot = await store.fetchesInSlot(9_001);
    });
    expect(inSlot.map((d) => d.fetch.id).sort()).toEqual(['200:1', '201:1', '203:1']);
    expect(inSlot.find((d) => d.fetch.id === '201:1')).toMatchObject({
      track: { postAccountId: 201, status: 'active' },
      fetch: { postAccountId: 201, n: 1, dueAt: new Date(Date.UTC(2026, 10, 27, 1)) },
    });
    expect((await store.fetchesInSlot(9_002)).map((d) => d.fetch.id).sort()).toEqual(['200:2', '201:2']);
    expect(await sequentialScans(connection, reads)).toEqual([]);
  });
});
