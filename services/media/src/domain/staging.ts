import { randomUUID } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { once } from 'node:events';
import path from 'node:path';

/** A temporary file an upload is written to while it is checked; removed whatever happens. */
export class StagingFile {
  private stream: WriteStream | undefined;
  readonly path: string;

  constructor(dir: string) {
    this.path = path.join(dir, `${randomUUID()}.upload`);
  }

  async write(chunk: Uint8Array): Promise<void> {
    if (!this.stream) {
      await mkdir(path.dirname(this.path), { recursive: true });
      this.stream = createWriteStream(this.path, { flags: 'wx' });
    }
    if (!this.stream.write(chunk)) await once(this.stream, 'drain');
  }

  /** Flushes and closes the file (creating it empty if nothing was written). */
  async close(): Promise<void> {
    if (!this.stream) await this.write(new Uint8Array(0));
    const stream = this.stream!;
    await new Promise<void>((resolve, reject) => stream.end((err?: Error | null) => (err ? reject(err) : resolve())));
  }

  async remove(): Promise<void> {
    const stream = this.stream;
    if (stream && !stream.closed) {
      // Wait for the file to be really open and closed: removing it before its open() completes
      // would let the open create it again afterwards.
      const closed = once(stream, 'close');
      stream.destroy();
      await closed;
    }
    await rm(this.path, { force: true });
  }
}
