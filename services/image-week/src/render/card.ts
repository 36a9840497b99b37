import sharp from 'sharp';
import type { Aspect, QuotePlatform } from '../domain/model.js';
import type { CardRenderer, RenderedCard } from '../domain/ports.js';
import { FONT_FAMILY, measureBold, useRepositoryFonts } from './fonts.js';
import { layoutText, type Box, type TextLayout } from './layout.js';
import { TEMPLATE_SETS, type Template } from './templates.js';

/** Card size per platform: Instagram portrait 4:5 (square on request), Pinterest 2:3. */
export function cardSize(platform: QuotePlatform, aspect?: Aspect): { width: number; height: number } {
  if (platform === 'pinterest') return { width: 1000, height: 1500 };
  return aspect === 'square' ? { width: 1080, height: 1080 } : { width: 1080, height: 1350 };
}

/** The area text must stay in: 9% of the width on every side, more at the bottom for the watermark. */
export function safeArea(width: number, height: number): Box {
  const margin = Math.round(width * 0.09);
  const top = margin + Math.round(width * 0.08); // room for the decorative quote mark
  return { x: margin, y: top, width: width - 2 * margin, height: height - top - margin - Math.round(width * 0.06) };
}

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Text normalised for the card: curly quotes and dashes kept, control characters and surrounding quotes dropped. */
export function cardText(quote: string): string {
  return (
    quote
      // eslint-disable-next-line no-control-regex -- control characters are exactly what must not reach the card
      .replace(/[\u0000-\u001f]/g, ' ')
      .replace(/^["“”'‘’\s]+|["“”'‘’\s]+$/g, '')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

/** The top of the quote's block: centred in the safe area. */
const textTop = (box: Box, layout: TextLayout) => box.y + (box.height - layout.height) / 2;

export function composeSvg(input: { text: string; width: number; height: number; template: Template; layout: TextLayout; box: Box; watermark?: string | undefined }): string {
  const { width, height, template: t, layout, box } = input;
  const scale = width / 1080;
  const top = textTop(box, layout);
  const cx = width / 2;
  const lines = layout.lines.map((l, i) => `<text x="${cx}" y="${(top + i * layout.lineHeight + layout.size).toFixed(1)}" text-anchor="middle">${escapeXml(l.text)}</text>`).join('');
  const markSize = Math.round(150 * scale);
  const watermark = input.watermark
    ? `<text x="${width - box.x}" y="${height - Math.round(box.x * 0.6)}" text-anchor="end" font-family="${FONT_FAMILY}" font-weight="400" font-size="${Math.round(28 * scale)}" fill="${t.text}" fill-opacity="0.7">${escapeXml(input.watermark)}</text>`
    : '';
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<defs><linearGradient id="bg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${t.background[0]}"/><stop offset="1" stop-color="${t.background[1]}"/></linearGradient></defs>` +
    `<rect width="${width}" height="${height}" fill="url(#bg)"/>` +
    `<rect x="${box.x}" y="${Math.round(box.y - markSize * 0.55)}" width="${Math.round(90 * scale)}" height="${Math.round(10 * scale)}" fill="${t.accent}"/>` +
    `<g font-family="${FONT_FAMILY}" font-weight="700" font-size="${layout.size}" fill="${t.text}" fill-opacity="${t.textOpacity}">${lines}</g>` +
    watermark +
    `</svg>`
  );
}

/**
 * Renders quote cards with sharp (librsvg) from an SVG whose text is laid out here, measured with the same font
 * file librsvg draws with. Attempt n of an item uses template (start + n - 1) and starts n - 1 size steps lower,
 * so a card that did not read back is laid out differently.
 */
export class SharpCardRenderer implements CardRenderer {
  private readonly templates: readonly Template[];

  constructor(templateVersion: string) {
    const set = TEMPLATE_SETS[templateVersion];
    if (!set) throw new Error(`unknown template set ${templateVersion}`);
    this.templates = set;
    useRepositoryFonts();
  }

  async render(input: { quote: string; platform: QuotePlatform; aspect?: Aspect | undefined; attempt: number; watermark?: string | undefined; templateOffset?: number }): Promise<RenderedCard> {
    const { width, height } = cardSize(input.platform, input.aspect);
    const template = this.templates[((input.templateOffset ?? 0) + input.attempt - 1) % this.templates.length]!;
    const text = cardText(input.quote);
    const box = safeArea(width, height);
    const scale = width / 1080;
    const sizes = template.sizes.slice(Math.min(input.attempt - 1, template.sizes.length - 1)).map((s) => Math.round(s * scale));
    const layout = layoutText(text, box, sizes, measureBold);
    if (!layout) throw new Error(`the quote does not fit a ${width}x${height} card even at ${sizes.at(-1)} px`);
    const svg = composeSvg({ text, width, height, template, layout, box, watermark: input.watermark });
    const png = await sharp(Buffer.from(svg)).png({ compressionLevel: 6 }).toBuffer();
    const textRegion = { x: box.x, y: Math.round(textTop(box, layout)), width: box.width, height: Math.round(layout.height), fontSize: layout.size };
    return { png, width, height, template: template.id, watermarked: !!input.watermark, textRegion };
  }
}
