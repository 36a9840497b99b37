/**
 * Tracks and fetches of the terminal events handled at once reach the store together (one insert
 * command per kind), and a repeated event's are duplicates: reported, never written twice.
 */
import { randomBytes } from 'node:crypto';
import { commandsIssuedBy, connectMongo, syncIndexes, type Connection } from '@spa/mongo';
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

describe('analytics store: group-committed tracks and fetches', () => {
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
    expect((await store.tracks(ids)).map((t) => t.postAccountId).sort()).toEqual(ids);
  });

  it('fetches of concurrent events go in one insert; repeats are ignored, each fetch stored once', async () => {
    const fetchesOf = (postAccountId: number) => [1, 2].map((n) => ({ id: `${postAccountId}:${n}`, postAccountId, n, dueAt: new Date(Date.UTC(2026, 10, 27, n)), slot: 9_000 + n }));
    const inserts = await commandsIssuedBy(connection, 'insert', () => Promise.all([200, 201, 202, 200].map((id) => store.insertFetches(fetchesOf(id)))));
    expect(inserts).toEqual(['fetches']);
    await store.insertFetches(fetchesOf(201));
    const inSlot = await store.fetchesInSlot(9_001);
    expect(inSlot.map((f) => f.id).sort()).toEqual(['200:1', '201:1', '202:1']);
    expect(inSlot.find((f) => f.id === '202:1')).toEqual({ id: '202:1', postAccountId: 202, n: 1, dueAt: new Date(Date.UTC(2026, 10, 27, 1)) });
  });
});
