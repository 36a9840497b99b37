import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StagingFile } from './staging.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'staging-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Waits until the file holds `size` bytes: its stream is open and idle (no write in flight). */
async function untilOnDisk(file: string, size: number): Promise<void> {
  for (;;) {
    const st = await stat(file).catch(() => undefined);
    if (st?.size === size) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('StagingFile', () => {
  it('removes the file when a write is still in flight, without failing (the refusal that stopped the upload is what gets reported)', async () => {
    // A write under the stream's high-water mark resolves at once while the disk write goes on:
    // the state an upload is in when its last bytes are refused.
    for (let i = 0; i < 20; i++) {
      const file = new StagingFile(dir);
      await file.write(new Uint8Array(1000));
      await untilOnDisk(file.path, 1000);
      await file.write(new Uint8Array(8000));
      await expect(file.remove()).resolves.toBeUndefined();
    }
    expect(await readdir(dir)).toEqual([]);
  });

  it('removes a file whose stream is still opening, and one never written', async () => {
    const opening = new StagingFile(dir);
    await opening.write(new Uint8Array(10));
    await opening.remove();
    await new StagingFile(dir).remove();
    expect(await readdir(dir)).toEqual([]);
  });

  it('closes a file with every byte written', async () => {
    const file = new StagingFile(dir);
    await file.write(new Uint8Array(20_000));
    await file.write(new Uint8Array(5));
    await file.close();
    expect((await stat(file.path)).size).toBe(20_005);
    await file.remove();
    expect(await readdir(dir)).toEqual([]);
  });

  it('reports a stream that failed (here its open) on the next write and on close, and never crashes the process', async () => {
    const file = new StagingFile(dir);
    await writeFile(file.path, 'in the way');
    // Accepted while the open is pending; the open then fails (the file exists) with nobody awaiting.
    await file.write(new Uint8Array(10));
    await expect(file.close()).rejects.toThrow(/EEXIST/);
    await expect(file.write(new Uint8Array(10))).rejects.toThrow(/EEXIST/);
    await file.remove();
    expect(await readdir(dir)).toEqual([]);
  });
});
