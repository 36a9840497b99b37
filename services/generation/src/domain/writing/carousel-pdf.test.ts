import { describe, expect, it } from 'vitest';
import { renderCarouselPdf, toWinAnsi } from './carousel-pdf.js';

const pages = (pdf: Buffer) => pdf.toString('latin1').match(/\/Type \/Page\b(?!s)/g)?.length ?? 0;

describe('carousel PDF', () => {
  it('renders exactly one 1080×1080 page per slide, even for long text', async () => {
    for (const count of [3, 6, 10]) {
      const slides = Array.from({ length: count }, (_, i) => ({ title: `Slide ${i + 1} ${'title '.repeat(i * 3)}`, body: 'A long body sentence that wraps. '.repeat(i * 4 + 1) }));
      const pdf = await renderCarouselPdf(slides, { title: 'Test' });
      expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(pages(pdf)).toBe(count);
      expect(pdf.toString('latin1')).toMatch(/\/MediaBox \[0 0 1080 1080\]/);
    }
  });

  it('reduces text to what the standard fonts can show', () => {
    expect(toWinAnsi('→ Ship it 🚀 “now” – café')).toBe('-> Ship it “now” – café');
  });
});
