import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMongo, IdAllocator, type Connection } from './index.js';

let connection: Connection;
beforeAll(async () => {
  connection = await connectMongo(process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017', `t_ids_${randomBytes(4).toString('hex')}`);
});
afterAll(async () => {
  await connection.dropDatabase();
  await connection.close();
});

describe('IdAllocator (real MongoDB-compatible store)', () => {
  it('allocates increasing integer ids from 1 per sequence', async () => {
    const ids = new IdAllocator(connection, 10);
    expect([await ids.next('a'), await ids.next('a'), await ids.next('b')]).toEqual([1, 2, 1]);
    const more = await ids.reserve('a', 15);
    expect(more).toEqual(Array.from({ length: 15 }, (_, i) => i + 3));
  });

  it('never hands the same id twice under concurrency, across allocators (processes) too', async () => {
    const allocators = Array.from({ length: 4 }, () => new IdAllocator(connection, 5));
    const got = await Promise.all(Array.from({ length: 200 }, (_, i) => allocators[i % 4]!.next('concurrent')));
    expect(new Set(got).size).toBe(200);
    expect(got.every((id) => Number.isSafeInteger(id) && id > 0)).toBe(true);
  });

  it('a new allocator (a restarted process) continues after every claimed block', async () => {
    const before = await new IdAllocator(connection, 10).reserve('restart', 3);
    const after = await new IdAllocator(connection, 10).next('restart');
    expect(before).toEqual([1, 2, 3]);
    expect(after).toBe(11);
  });

  it('reserves ids for bulk inserts in increasing order, and refuses a bad count', async () => {
    const ids = new IdAllocator(connection, 4);
    const [first, second] = await Promise.all([ids.reserve('bulk', 5), ids.reserve('bulk', 3)]);
    expect(first).toEqual([...first!].sort((x, y) => x - y));
    expect(new Set([...first!, ...second!]).size).toBe(8);
    await expect(ids.reserve('bulk', 0)).rejects.toThrow(RangeError);
  });
});
