import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { QUOTE_MAX } from '../domain/quote-text.js';
import { QUOTES } from './__fixtures__/quotes.js';
import { cardSize, cardText, safeArea, SharpCardRenderer } from './card.js';
import { FONT_FAMILY, measureBold, useRepositoryFonts } from './fonts.js';
import { layoutText, wrap } from './layout.js';
import { TEMPLATE_SETS } from './templates.js';

const FORMATS = [
  { platform: 'instagram', aspect: 'portrait' },
  { platform: 'instagram', aspect: 'square' },
  { platform: 'pinterest', aspect: undefined },
] as const;
const sizes = TEMPLATE_SETS['quote-cards-v1']![0]!.sizes;

describe('quote card layout', () => {
  it('has 200 quotes of real-world lengths up to the quote limit', () => {
    expect(QUOTES).toHaveLength(200);
    expect(Math.max(...QUOTES.map((q) => q.length))).toBeLessThanOrEqual(QUOTE_MAX);
    expect(Math.max(...QUOTES.map((q) => q.length))).toBeGreaterThan(150);
  });

  it('fits every quote inside the safe area of every format, at every attempt', () => {
    for (const format of FORMATS) {
      const { width, height } = cardSize(format.platform, format.aspect);
      const box = safeArea(width, height);
      const scaled = sizes.map((s) => Math.round((s * width) / 1080));
      for (const quote of QUOTES) {
        for (let attempt = 1; attempt <= 3; attempt++) {
          const layout = layoutText(cardText(quote), box, scaled.slice(attempt - 1), measureBold);
          expect(layout, `${format.platform}/${format.aspect} attempt ${attempt}: ${quote}`).toBeDefined();
          expect(layout!.height).toBeLessThanOrEqual(box.height);
          for (const line of layout!.lines) expect(line.width).toBeLessThanOrEqual(box.width);
          expect(layout!.lines.map((l) => l.text).join(' ')).toBe(cardText(quote));
        }
      }
    }
  });

  it('splits a word wider than the box instead of letting it overflow', () => {
    const lines = wrap('Supercalifragilisticexpialidocious', 80, 400, measureBold);
    expect(lines.length).toBeGreaterThan(1);
    for (const l of lines) expect(l.width).toBeLessThanOrEqual(400);
  });

  it('measures text as librsvg draws it with the shipped font (within 3%)', async () => {
    useRepositoryFonts();
    for (const text of ['The only way out is through.', 'WWWW mmmm iiii', 'Quality is never an accident']) {
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="2000" height="200"><rect width="2000" height="200" fill="#fff"/><text x="10" y="120" font-family="${FONT_FAMILY}" font-weight="700" font-size="64" fill="#000">${text}</text></svg>`;
      const { info } = await sharp(Buffer.from(svg)).trim({ background: '#ffffff' }).toBuffer({ resolveWithObject: true });
      const measured = measureBold(text, 64);
      expect(Math.abs(info.width - measured) / measured, text).toBeLessThan(0.03);
    }
  });

  it('renders the ink of a long quote inside the safe area', async () => {
    const renderer = new SharpCardRenderer('quote-cards-v1');
    const longest = [...QUOTES].sort((a, b) => b.length - a.length)[0]!;
    for (const format of FORMATS) {
      const card = await renderer.render({ quote: longest, platform: format.platform, aspect: format.aspect, attempt: 1, templateOffset: 1 });
      const { width, height } = cardSize(format.platform, format.aspect);
      expect([card.width, card.height]).toEqual([width, height]);
      // The "paper" template has a light background and dark text: find the text's ink.
      const { data, info } = await sharp(card.png).greyscale().raw().toBuffer({ resolveWithObject: true });
      const box = safeArea(width, height);
      let minX = width,
        maxX = 0,
        minY = height,
        maxY = 0;
      for (let y = box.y - 5; y < height; y++)
        for (let x = 0; x < width; x++) {
          if (data[y * info.width + x]! < 100) {
            minX = Math.min(minX, x);
            maxX = Math.max(maxX, x);
            minY = Math.min(minY, y);
            maxY = Math.max(maxY, y);
          }
        }
      expect(minX).toBeGreaterThanOrEqual(box.x);
      expect(maxX).toBeLessThanOrEqual(box.x + box.width);
      expect(minY).toBeGreaterThanOrEqual(box.y);
      expect(maxY).toBeLessThanOrEqual(box.y + box.height);
    }
  });
});
