import { describe, expect, it } from 'vitest';
import { WriteBatcher } from './write-batcher.js';

/** A store stand-in that records each command and answers when told to. */
function recordingWrite() {
  const commands: number[][] = [];
  const answers: Array<(fail?: Error) => void> = [];
  const write = (items: number[]) =>
    new Promise<string[]>((resolve, reject) => {
      commands.push(items);
      answers.push((fail) => (fail ? reject(fail) : resolve(items.map((i) => `r${i}`))));
    });
  return { commands, answers, write };
}

/** Lets the batcher run: its answers settle and the writes asked for meanwhile are sent. */
async function tick(): Promise<void> {
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe('WriteBatcher', () => {
  it('sends the writes asked for together in one command and gives each caller its own result', async () => {
    const store = recordingWrite();
    const batcher = new WriteBatcher(store.write, { maxBatch: 100, maxInFlight: 1 });
    const results = Promise.all([1, 2, 3].map((i) => batcher.add(i)));
    await tick();
    expect(store.commands).toEqual([[1, 2, 3]]);
    store.answers[0]!();
    expect(await results).toEqual(['r1', 'r2', 'r3']);
  });

  it('gathers the writes made while its commands are in flight into the next command, within maxBatch', async () => {
    const store = recordingWrite();
    const batcher = new WriteBatcher(store.write, { maxBatch: 2, maxInFlight: 1 });
    const first = batcher.add(1);
    await tick();
    const later = [2, 3, 4].map((i) => batcher.add(i));
    await tick();
    expect(store.commands).toEqual([[1]]); // nothing else is sent while one command is in flight
    store.answers[0]!();
    expect(await first).toBe('r1');
    await tick();
    expect(store.commands).toEqual([[1], [2, 3]]);
    store.answers[1]!();
    await tick();
    expect(store.commands).toEqual([[1], [2, 3], [4]]);
    store.answers[2]!();
    expect(await Promise.all(later)).toEqual(['r2', 'r3', 'r4']);
  });

  it('keeps at most maxInFlight commands in flight', async () => {
    const store = recordingWrite();
    const batcher = new WriteBatcher(store.write, { maxBatch: 100, maxInFlight: 2 });
    const all = [batcher.add(1)];
    await tick();
    all.push(batcher.add(2));
    await tick();
    all.push(batcher.add(3), batcher.add(4));
    await tick();
    expect(store.commands).toEqual([[1], [2]]);
    store.answers[1]!();
    await tick();
    expect(store.commands).toEqual([[1], [2], [3, 4]]);
    store.answers[0]!();
    store.answers[2]!();
    expect(await Promise.all(all)).toEqual(['r1', 'r2', 'r3', 'r4']);
  });

  it('fails every write of a failed command, and only those', async () => {
    const store = recordingWrite();
    const batcher = new WriteBatcher(store.write, { maxBatch: 100, maxInFlight: 1 });
    const failed = [batcher.add(1), batcher.add(2)];
    await tick();
    const next = batcher.add(3);
    store.answers[0]!(new Error('store down'));
    for (const write of failed) await expect(write).rejects.toThrow('store down');
    await tick();
    store.answers[1]!();
    expect(await next).toBe('r3');
  });

  it('fails the writes of a command whose write throws at once', async () => {
    const batcher = new WriteBatcher<number, string>(() => {
      throw new Error('bad input');
    });
    await expect(batcher.add(1)).rejects.toThrow('bad input');
  });
});
