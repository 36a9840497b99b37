import { randomBytes } from 'node:crypto';
import { connectMongo, syncIndexes, type Connection } from '@spa/mongo';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerModels, type AccountsModels } from './models.js';
import { RevisionLog } from './revisions.js';

let connection: Connection;
let models: AccountsModels;
beforeAll(async () => {
  connection = await connectMongo(process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017', `t_acc_rev_${randomBytes(4).toString('hex')}`);
  models = registerModels(connection);
  await syncIndexes(connection);
});
afterAll(async () => {
  await connection.dropDatabase();
  await connection.close();
});

interface Tally {
  n: number;
  writers: number[];
}

describe('RevisionLog on the real store', () => {
  it('applies each of many racing read-modify-write changes exactly once', async () => {
    const log = new RevisionLog<Tally>(models.PreferencesRevision, (key) => key);
    for (const key of ['a', 'b', 'c']) {
      await Promise.all(Array.from({ length: 20 }, (_, i) => log.change(1, key, (cur) => ({ n: (cur?.n ?? 0) + 1, writers: [...(cur?.writers ?? []), i] }))));
      const final = await log.latest(1, key);
      expect(final?.n).toBe(20);
      expect([...final!.writers].sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    }
    // Only the latest revision of each value keeps its state.
    expect(await models.PreferencesRevision.countDocuments({ workspace_id: 1, state: { $exists: true } })).toBe(3);
    expect([...(await log.latestOfWorkspace(1)).keys()].sort()).toEqual(['a', 'b', 'c']);
  });

  it('lets every workspace write a key that repeats across workspaces (a platform name) when the log is per workspace', async () => {
    const log = new RevisionLog<Tally>(models.PreferencesRevision, (key) => key, true);
    await Promise.all([10, 11, 12].map((ws) => log.change(ws, 'linkedin', () => ({ n: ws, writers: [] }))));
    for (const ws of [10, 11, 12]) expect((await log.latest(ws, 'linkedin'))?.n).toBe(ws);
    await log.change(11, 'linkedin', (cur) => ({ n: cur!.n + 100, writers: [] }));
    expect((await log.latest(11, 'linkedin'))?.n).toBe(111);
    expect((await log.latest(10, 'linkedin'))?.n).toBe(10);
  });

  it('keeps values of different workspaces apart and writes nothing when the change declines', async () => {
    const log = new RevisionLog<Tally>(models.PreferencesRevision, (key) => key);
    await log.change(2, 'x', () => ({ n: 1, writers: [] }));
    expect(await log.latest(3, 'x')).toBeNull();
    expect(await log.change(3, 'x', (cur) => (cur ? { ...cur, n: cur.n + 1 } : null))).toBeNull();
    expect(await log.latest(3, 'x')).toBeNull();
    expect((await log.latest(2, 'x'))?.n).toBe(1);
  });
});
