import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { createWorker, PSM, type Worker } from 'tesseract.js';
import type { CardReader, ReadBack } from '../domain/ports.js';

const require = createRequire(import.meta.url);
/** The English model shipped in @tesseract.js-data/eng: nothing is downloaded at run time. */
const ENG = require('@tesseract.js-data/eng') as { langPath: string; gzip: boolean };

/**
 * Built-in offline reader: tesseract.js with the packaged English data. One worker per process, started once and
 * reused (starting one takes seconds); reads run one at a time on it. Cards are read at half size, which
 * tesseract reads as well at these type sizes and twice as fast.
 */
export class OcrReader implements CardReader {
  private worker: Promise<Worker> | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  private start(): Promise<Worker> {
    this.worker ??= createWorker('eng', 1, {
      langPath: ENG.langPath,
      gzip: ENG.gzip,
      cachePath: path.join(tmpdir(), 'spa-image-week-tesseract'),
      cacheMethod: 'none',
      logger: () => undefined,
      errorHandler: () => undefined,
    }).then(async (w) => {
      await w.setParameters({ tessedit_pageseg_mode: PSM.AUTO });
      return w;
    });
    return this.worker;
  }

  /** Starts the worker ahead of the first card. */
  async warm(): Promise<void> {
    await this.start();
  }

  read(png: Buffer): Promise<ReadBack> {
    const run = this.queue.then(async () => {
      const worker = await this.start();
      const meta = await sharp(png).metadata();
      const small = await sharp(png)
        .resize({ width: Math.round((meta.width ?? 1000) / 2) })
        .greyscale()
        .png()
        .toBuffer();
      const { data } = await worker.recognize(small);
      return { text: data.text, costCents: 0, reader: 'tesseract' };
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  async close(): Promise<void> {
    if (this.worker) await (await this.worker).terminate();
    this.worker = undefined;
  }
}
