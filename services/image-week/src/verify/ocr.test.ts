import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { QUOTES } from '../render/__fixtures__/quotes.js';
import { safeArea, SharpCardRenderer } from '../render/card.js';
import { compareReadBack, normalizeText } from './compare.js';
import { OcrReader } from './ocr.js';

/**
 * The built-in reader reads only the block where the renderer set the quote (at a size tuned to the type). That must
 * not weaken verification: the block holds all of the quote's ink, cards of every format and length still read back
 * as their quote, and a card whose text is unreadable still does not.
 */
const FORMATS = [
  { platform: 'instagram', aspect: 'portrait' },
  { platform: 'instagram', aspect: 'square' },
  { platform: 'pinterest', aspect: undefined },
] as const;
const reader = new OcrReader(2);
afterAll(() => reader.close());

/** Quotes spread over the fixture's lengths, short to the longest (not the fixture's punctuation-only edge cases). */
const byLength = QUOTES.filter((q) => normalizeText(q).length >= 10).sort((a, b) => a.length - b.length);
const sample = [0, 0.2, 0.4, 0.6, 0.8, 1].map((f) => byLength[Math.min(byLength.length - 1, Math.floor(f * byLength.length))]!);

describe('OCR of the quote block', () => {
  it('the text region holds all of the quote ink and lies in the safe area', async () => {
    const renderer = new SharpCardRenderer('quote-cards-v1');
    for (const format of FORMATS) {
      const card = await renderer.render({ quote: sample.at(-1)!, platform: format.platform, aspect: format.aspect, attempt: 1, templateOffset: 1 });
      const r = card.textRegion!;
      const box = safeArea(card.width, card.height);
      expect(r.x).toBeGreaterThanOrEqual(box.x);
      expect(r.y).toBeGreaterThanOrEqual(box.y);
      expect(r.y + r.height).toBeLessThanOrEqual(box.y + box.height);
      // The "paper" template: dark ink on a light background. Every ink pixel below the accent bar is in the region
      // widened by half a line (what the reader reads).
      const { data, info } = await sharp(card.png).greyscale().raw().toBuffer({ resolveWithObject: true });
      const pad = r.fontSize / 2;
      for (let y = box.y - 5; y < card.height; y++)
        for (let x = 0; x < card.width; x++)
          if (data[y * info.width + x]! < 100) {
            expect(x >= r.x - pad && x <= r.x + r.width + pad && y >= r.y - pad && y <= r.y + r.height + pad, `ink at ${x},${y}`).toBe(true);
          }
    }
  });

  it('reads cards of every format and length back as their quote', { timeout: 120_000 }, async () => {
    const renderer = new SharpCardRenderer('quote-cards-v1');
    const cases = sample.flatMap((quote, i) => FORMATS.map((f, j) => ({ quote, ...f, templateOffset: i + j })));
    const results = await Promise.all(
      cases.map(async (c) => {
        const card = await renderer.render({ quote: c.quote, platform: c.platform, aspect: c.aspect, attempt: 1, templateOffset: c.templateOffset });
        const read = await reader.read(card.png, card.textRegion);
        return { ...c, ok: compareReadBack(c.quote, read.text).ok, text: read.text };
      }),
    );
    expect(results.filter((r) => !r.ok)).toEqual([]);
  });

  it('does not read a card whose text is unreadable', { timeout: 60_000 }, async () => {
    const renderer = new SharpCardRenderer('test-unreadable');
    const quote = sample[2]!;
    const card = await renderer.render({ quote, platform: 'instagram', aspect: 'portrait', attempt: 1 });
    expect(compareReadBack(quote, (await reader.read(card.png, card.textRegion)).text).ok).toBe(false);
    expect(compareReadBack(quote, (await reader.read(card.png)).text).ok).toBe(false);
  });
});
