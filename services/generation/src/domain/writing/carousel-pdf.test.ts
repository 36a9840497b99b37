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

  it("renders pages in the platform style's image aspect, one per slide even for long text", async () => {
    const slides = Array.from({ length: 4 }, (_, i) => ({ title: `Slide ${i + 1} ${'title '.repeat(12)}`, body: 'A long body sentence that wraps. '.repeat(20) }));
    for (const [aspect, height] of [
      ['4:5', 1350],
      ['16:9', 608],
      ['1.91:1', 565],
      ['9:16', 1920],
    ] as const) {
      const pdf = await renderCarouselPdf(slides, { title: 'Test', aspect });
      expect(pages(pdf), aspect).toBe(4);
      expect(pdf.toString('latin1')).toMatch(new RegExp(`/MediaBox \\[0 0 1080 ${height}\\]`));
    }
  });

  it('reduces text to what the standard fonts can show', () => {
    expect(toWinAnsi('→ Ship it 🚀 “now” – café')).toBe('-> Ship it “now” – café');
  });
});
