import { describe, expect, it } from 'vitest';
import { compareReadBack, normalizeText } from './compare.js';

describe('read-back comparison', () => {
  it('normalises case, accents, curly quotes, dashes and line breaks', () => {
    expect(normalizeText('“Café” — it’s\nDONE!')).toBe('cafe it s done');
  });

  it('accepts an exact read-back across line breaks and punctuation noise', () => {
    expect(compareReadBack('The only way out is through.', 'The only way\nout is through').ok).toBe(true);
  });

  it('tolerates a few OCR slips in a long quote', () => {
    const quote = 'We are what we repeatedly do. Excellence, then, is not an act, but a habit.';
    expect(compareReadBack(quote, 'We are what we repeatediy do. Excel1ence, then, is not an act, but a habit').ok).toBe(true);
  });

  it('rejects a garbled or missing read-back', () => {
    const quote = 'The secret of getting ahead is getting started.';
    expect(compareReadBack(quote, 'Th3 s3cr t 0f g tt ng h d').ok).toBe(false);
    expect(compareReadBack(quote, '').ok).toBe(false);
    expect(compareReadBack(quote, 'The secret of getting ahead').ok).toBe(false);
  });

  it('ignores the watermark but not other extra text', () => {
    const quote = 'Energy and persistence conquer all things.';
    expect(compareReadBack(quote, 'Energy and persistence\nconquer all things.\n\nexample.com', { watermark: 'example.com' }).ok).toBe(true);
    expect(compareReadBack(quote, 'Energy and persistence conquer all things. Buy now at shop dot com').ok).toBe(false);
  });
});
