import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as fontkit from 'fontkit';
import type { Measure } from './layout.js';

/** The fonts that ship with the service (Inter, SIL Open Font License 1.1: fonts/OFL.txt). */
export const FONT_DIR = fileURLToPath(new URL('../../fonts/', import.meta.url));
export const FONT_FAMILY = 'Inter';
const BOLD_FILE = path.join(FONT_DIR, 'Inter_700Bold.ttf');

let configured = false;

/**
 * Points fontconfig (which librsvg inside sharp uses to find fonts) at the repository's font folder only, so that
 * every machine renders with the same font files whatever fonts it has installed. fontconfig reads FONTCONFIG_FILE
 * when it first lays out text, so this runs before the first render. The file is written to a temporary folder
 * because it must name the folder by absolute path.
 */
export function useRepositoryFonts(): void {
  if (configured) return;
  const dir = path.join(tmpdir(), `spa-image-week-fontconfig-${process.getuid?.() ?? 0}`);
  mkdirSync(path.join(dir, 'cache'), { recursive: true });
  const file = path.join(dir, 'fonts.conf');
  const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  writeFileSync(
    file,
    `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n  <dir>${xml(FONT_DIR)}</dir>\n  <cachedir>${xml(path.join(dir, 'cache'))}</cachedir>\n</fontconfig>\n`,
  );
  process.env.FONTCONFIG_FILE = file;
  configured = true;
}

let boldFont: fontkit.Font | undefined;
/** Advance widths in font units by text: wrapping measures the same words and prefixes many times. */
const widths = new Map<string, number>();
const MAX_CACHED = 20_000;

/** Text width as librsvg sets it: the bold face's advance widths with its kerning, scaled to the size. */
export const measureBold: Measure = (text, size) => {
  boldFont ??= fontkit.openSync(BOLD_FILE) as fontkit.Font;
  let units = widths.get(text);
  if (units === undefined) {
    units = boldFont.layout(text).advanceWidth;
    if (widths.size >= MAX_CACHED) widths.clear();
    widths.set(text, units);
  }
  return (units * size) / boldFont.unitsPerEm;
};
