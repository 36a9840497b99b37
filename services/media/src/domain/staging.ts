import { randomUUID } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { once } from 'node:events';
import path from 'node:path';
import { AppError } from '@spa/errors';
import { SNIFF_BYTES } from './inspect.js';

/** A temporary file an upload is written to while it is checked; removed whatever happens. */
export class StagingFile {
  private stream: WriteStream | undefined;
  /** The stream's error (a failed open or write), reported by the next write or close. */
  private failure: Error | undefined;
  readonly path: string;

  constructor(dir: string) {
    this.path = path.join(dir, `${randomUUID()}.upload`);
  }

  async write(chunk: Uint8Array): Promise<void> {
    if (!this.stream) {
      await mkdir(path.dirname(this.path), { recursive: true });
      this.stream = createWriteStream(this.path, { flags: 'wx' });
      // Always listened to: a write that fails while nobody awaits 'drain' must not crash the process.
      this.stream.on('error', (err) => (this.failure ??= err));
    }
    if (this.failure) throw this.failure;
    if (!this.stream.write(chunk)) await once(this.stream, 'drain');
  }

  /** Flushes and closes the file (creating it empty if nothing was written). */
  async close(): Promise<void> {
    if (!this.stream) await this.write(new Uint8Array(0));
    if (this.failure) throw this.failure;
    const stream = this.stream!;
    await new Promise<void>((resolve, reject) => stream.end((err?: Error | null) => (err ? reject(err) : resolve())));
  }

  /**
   * Discards the file; never fails on the stream's account, so the reason the upload stopped (a
   * refusal) is what its caller reports. Destroying the stream while a write is in flight makes
   * Node report ERR_STREAM_DESTROYED for that write: expected here, as the bytes are discarded.
   */
  async remove(): Promise<void> {
    const stream = this.stream;
    if (stream && !stream.closed) {
      // Wait for the file to be really open and closed: removing it before its open() completes
      // would let the open create it again afterwards.
      const closed = new Promise<void>((resolve) => stream.once('close', resolve));
      stream.destroy();
      await closed;
    }
    await rm(this.path, { force: true });
  }
}

/** The cap that applies to an upload now: its size in bytes and what it is the limit of ("twitter images"). */
export interface UploadCap {
  bytes: number;
  what: string;
}

const formatBytes = (n: number): string => (n >= 1_000_000 ? `${+(n / 1_000_000).toFixed(2)} MB` : `${n} bytes`);

/**
 * The bytes of one upload as they arrive: counted against a cap (PAYLOAD_TOO_LARGE as soon as they
 * pass it), the first SNIFF_BYTES handed once to `inspectHead` (which sniffs the type and refuses a
 * wrong one before the rest is written), and everything written to a staging file. Memory holds the
 * head and one chunk; the caller removes the file whatever happens.
 */
export class StagedUpload {
  readonly file: StagingFile;
  size = 0;
  private head: Uint8Array[] = [];
  private headBytes = 0;
  private inspected = false;

  constructor(
    dir: string,
    private readonly inspectHead: (head: Buffer) => Promise<void>,
  ) {
    this.file = new StagingFile(dir);
  }

  get path(): string {
    return this.file.path;
  }

  /** Adds the next bytes, refusing them once the total passes `cap` (the cap that applies now). */
  async append(chunk: Uint8Array, cap: UploadCap): Promise<void> {
    if (!chunk.length) return;
    this.size += chunk.length;
    checkCap(this.size, cap);
    if (!this.inspected) {
      this.head.push(chunk);
      this.headBytes += chunk.length;
      if (this.headBytes >= SNIFF_BYTES) await this.inspect();
    }
    await this.file.write(chunk);
  }

  /** Ends the bytes: a file shorter than SNIFF_BYTES is inspected now; the staging file is closed. */
  async finish(cap: UploadCap): Promise<void> {
    if (!this.inspected) await this.inspect();
    checkCap(this.size, cap);
    await this.file.close();
  }

  remove(): Promise<void> {
    return this.file.remove();
  }

  private async inspect(): Promise<void> {
    this.inspected = true;
    const head = Buffer.concat(this.head, this.headBytes);
    this.head = [];
    await this.inspectHead(head);
  }
}

function checkCap(size: number, cap: UploadCap): void {
  if (size > cap.bytes) throw new AppError('PAYLOAD_TOO_LARGE', `media is larger than ${cap.what} accept (${formatBytes(cap.bytes)} at most)`);
}
