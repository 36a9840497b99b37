import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { signPresignedPut } from '../domain/presign-signature.js';
import type { ObjectStorage, PresignedPut } from './port.js';

/**
 * Objects as files under `root` (the key is the relative path). Public reads and presigned PUTs go
 * through the media HTTP server, reached at `publicBaseUrl` (the gateway's /media relay).
 */
export class LocalDiskStorage implements ObjectStorage {
  readonly kind = 'local' as const;

  constructor(
    private readonly root: string,
    private readonly publicBaseUrl: string,
    private readonly signingKey: string,
  ) {}

  private pathOf(key: string): string {
    const full = path.resolve(this.root, key);
    if (!full.startsWith(path.resolve(this.root) + path.sep)) throw new Error(`key escapes the storage root: ${key}`);
    return full;
  }

  async put(key: string, body: Readable, size: number): Promise<void> {
    const target = this.pathOf(key);
    await mkdir(path.dirname(target), { recursive: true });
    // Written beside the target and renamed once complete: a reader never sees a partial file.
    const partial = `${target}.${randomUUID()}.part`;
    try {
      await pipeline(body, createWriteStream(partial, { flags: 'wx' }));
      const written = (await stat(partial)).size;
      if (written !== size) throw new Error(`stored ${written} bytes, expected ${size}`);
      await rename(partial, target);
    } catch (err) {
      await rm(partial, { force: true });
      throw err;
    }
  }

  async get(key: string): Promise<{ body: Readable; size: number } | undefined> {
    const found = await this.head(key);
    return found && { body: createReadStream(this.pathOf(key)), size: found.size };
  }

  async head(key: string): Promise<{ size: number } | undefined> {
    try {
      const s = await stat(this.pathOf(key));
      return s.isFile() ? { size: s.size } : undefined;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async publicUrl(key: string): Promise<string> {
    return `${this.publicBaseUrl.replace(/\/$/, '')}/${key}`;
  }

  async presignPut(put: PresignedPut): Promise<string> {
    const url = new URL(await this.publicUrl(put.key));
    for (const [name, value] of Object.entries(signPresignedPut(this.signingKey, put))) url.searchParams.set(name, value);
    return url.toString();
  }
}
