import type { ImageAspect } from '@spa/platforms';
import PDFDocument from 'pdfkit';
import type { Slide } from './brief.js';

/** Page width (pt); square pages (1080 × 1080) unless the platform style's `image_aspect` asks another shape. */
export const PAGE_SIZE = 1080;

/** The page height for an aspect (width:height) at PAGE_SIZE wide: 4:5 → 1350, 16:9 → 608. */
export function pageHeight(aspect: ImageAspect = '1:1'): number {
  const [w, h] = aspect.split(':').map(Number) as [number, number];
  return Math.round((PAGE_SIZE * h) / w);
}
const MARGIN = 96;
const WIDTH = PAGE_SIZE - 2 * MARGIN;
const COLORS = { coverBackground: '#0f2a4a', coverText: '#ffffff', accent: '#2f80ed', background: '#f7f9fc', title: '#0f2a4a', body: '#2d3748', muted: '#718096' };

/**
 * Renders one page per slide with pdfkit: a dark cover page (first slide), light content pages, the
 * title large and bold, the body below it, a page marker "k / n" at the bottom. Font sizes shrink
 * until the text fits its box. The standard Helvetica fonts are used (no font files to ship), so text
 * is reduced to Windows-1252 characters (see `toWinAnsi`).
 */
export function renderCarouselPdf(slides: readonly Slide[], meta: { title: string; aspect?: ImageAspect }): Promise<Buffer> {
  const height = pageHeight(meta.aspect);
  // The title box takes up to 440 pt of a square page, proportionally less on a landscape one.
  const titleBox = Math.min(440, Math.round((height - 2 * MARGIN) * 0.45));
  const doc = new PDFDocument({ size: [PAGE_SIZE, height], margin: 0, autoFirstPage: false, info: { Title: toWinAnsi(meta.title), Creator: 'spa generation' } });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  slides.forEach((slide, i) => {
    const cover = i === 0;
    doc.addPage();
    doc.rect(0, 0, PAGE_SIZE, height).fill(cover ? COLORS.coverBackground : COLORS.background);
    doc.rect(MARGIN, MARGIN, 120, 12).fill(COLORS.accent);
    const title = toWinAnsi(slide.title);
    const body = toWinAnsi(slide.body);
    const titleSize = fitFontSize(doc, 'Helvetica-Bold', title, cover ? 84 : 64, 36, titleBox - 20);
    doc
      .font('Helvetica-Bold')
      .fontSize(titleSize)
      .fillColor(cover ? COLORS.coverText : COLORS.title);
    // Layout is explicit (page margins 0): text boxes are bounded by `height`, so nothing flows onto an extra page.
    doc.text(title, MARGIN, MARGIN + 60, { width: WIDTH, height: titleBox, lineGap: 6, ellipsis: true });
    const bodyTop = doc.y + 48;
    const bodySize = fitFontSize(doc, 'Helvetica', body, cover ? 40 : 38, 22, height - MARGIN - 80 - bodyTop);
    doc
      .font('Helvetica')
      .fontSize(bodySize)
      .fillColor(cover ? COLORS.coverText : COLORS.body);
    doc.text(body, MARGIN, bodyTop, { width: WIDTH, height: height - MARGIN - 60 - bodyTop, lineGap: 10, ellipsis: true });
    doc
      .font('Helvetica')
      .fontSize(24)
      .fillColor(cover ? COLORS.coverText : COLORS.muted);
    doc.text(`${i + 1} / ${slides.length}`, MARGIN, height - MARGIN - 24, { width: WIDTH, align: 'right', lineBreak: false });
  });
  doc.end();
  return done;
}

function fitFontSize(doc: PDFKit.PDFDocument, font: string, text: string, max: number, min: number, height: number): number {
  doc.font(font);
  for (let size = max; size > min; size -= 2) {
    if (doc.fontSize(size).heightOfString(text, { width: WIDTH, lineGap: 8 }) <= height) return size;
  }
  return min;
}

const REPLACEMENTS: Record<string, string> = { '→': '->', '←': '<-', '✓': '-', '✔': '-', '★': '*', '≥': '>=', '≤': '<=', '\u00a0': ' ' };
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

/** Keeps what the standard PDF fonts can show (Windows-1252); arrows become ASCII, emoji and other symbols are dropped. */
export function toWinAnsi(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (REPLACEMENTS[ch] !== undefined) out += REPLACEMENTS[ch];
    else if (ch === '\n' || (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(ch)) out += ch;
  }
  return out.replace(/[ \t]{2,}/g, ' ').trim();
}
