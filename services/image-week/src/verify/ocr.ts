import { availableParallelism, tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';
import { createWorker, PSM, type Worker } from 'tesseract.js';
import type { CardReader, ReadBack, TextRegion } from '../domain/ports.js';

const require = createRequire(import.meta.url);
/** The English model shipped in @tesseract.js-data/eng: nothing is downloaded at run time. */
const ENG = require('@tesseract.js-data/eng') as { langPath: string; gzip: boolean };

/** Type size (px) the quote is scaled to before reading: tesseract reads lines of this height well and fast. */
export const OCR_TARGET_FONT_PX = 40;

/** OCR workers per process by default: one per core, at most 2 (each holds its own model, about 60 MiB). */
export const defaultOcrWorkers = () => Math.max(1, Math.min(2, availableParallelism()));

interface Slot {
  worker: Promise<Worker>;
  /** Reads queued on this worker (it reads one at a time). */
  queue: Promise<unknown>;
  pending: number;
  mode?: PSM | undefined;
}

/**
 * The image tesseract reads. With the renderer's region: only the quote's block (with a margin of half a line),
 * scaled so the type is OCR_TARGET_FONT_PX high (never enlarged), read as one uniform block of text. Without one (a
 * card read from storage): the whole card at half size, page layout found by tesseract.
 */
export async function ocrInput(png: Buffer, region?: TextRegion): Promise<{ image: Buffer; mode: PSM }> {
  const card = sharp(png);
  if (!region) {
    const meta = await card.metadata();
    return {
      image: await card
        .resize({ width: Math.round((meta.width ?? 1000) / 2) })
        .greyscale()
        .png({ compressionLevel: 0 })
        .toBuffer(),
      mode: PSM.AUTO,
    };
  }
  const meta = await card.metadata();
  const pad = Math.round(region.fontSize / 2);
  const left = Math.max(0, region.x - pad);
  const top = Math.max(0, region.y - pad);
  const width = Math.min((meta.width ?? region.x + region.width) - left, region.width + 2 * pad);
  const height = Math.min((meta.height ?? region.y + region.height) - top, region.height + 2 * pad);
  const scale = Math.min(1, OCR_TARGET_FONT_PX / region.fontSize);
  const image = await card
    .extract({ left, top, width, height })
    .resize({ width: Math.max(1, Math.round(width * scale)) })
    .greyscale()
    .png({ compressionLevel: 0 })
    .toBuffer();
  return { image, mode: PSM.SINGLE_BLOCK };
}

/**
 * Built-in offline reader: tesseract.js with the packaged English data. A small pool of workers, started once and
 * reused (starting one takes seconds); each reads one card at a time and a read goes to the least busy worker, so
 * reads do not queue behind each other while a core is free.
 */
export class OcrReader implements CardReader {
  private slots: Slot[] | undefined;

  constructor(private readonly workers = defaultOcrWorkers()) {}

  private pool(): Slot[] {
    this.slots ??= Array.from({ length: this.workers }, () => ({
      worker: createWorker('eng', 1, {
        langPath: ENG.langPath,
        gzip: ENG.gzip,
        cachePath: path.join(tmpdir(), 'spa-image-week-tesseract'),
        cacheMethod: 'none',
        logger: () => undefined,
        errorHandler: () => undefined,
      }),
      queue: Promise.resolve(),
      pending: 0,
    }));
    return this.slots;
  }

  /** Starts the workers ahead of the first card. */
  async warm(): Promise<void> {
    await Promise.all(this.pool().map((s) => s.worker));
  }

  read(png: Buffer, region?: TextRegion): Promise<ReadBack> {
    const slot = this.pool().reduce((a, b) => (b.pending < a.pending ? b : a));
    slot.pending++;
    // The image is prepared (sharp, off the main thread) while the worker may still be reading another card.
    const input = ocrInput(png, region);
    const run = slot.queue.then(async () => {
      const [worker, { image, mode }] = await Promise.all([slot.worker, input]);
      if (slot.mode !== mode) {
        await worker.setParameters({ tessedit_pageseg_mode: mode });
        slot.mode = mode;
      }
      const { data } = await worker.recognize(image);
      return { text: data.text, costCents: 0, reader: 'tesseract' };
    });
    slot.queue = run.catch(() => undefined).finally(() => slot.pending--);
    return run;
  }

  async close(): Promise<void> {
    const slots = this.slots;
    this.slots = undefined;
    if (slots) await Promise.all(slots.map(async (s) => (await s.worker).terminate()));
  }
}
