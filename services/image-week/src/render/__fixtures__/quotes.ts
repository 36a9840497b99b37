/**
 * 200 quotes of real-world lengths for the layout test: well-known public-domain sayings, then generated ones whose
 * lengths run evenly from 12 to QUOTE_MAX characters with realistic word lengths, long words and punctuation.
 */
const REAL = [
  'The only way out is through.',
  'Well begun is half done.',
  'Whatever you are, be a good one.',
  'It does not matter how slowly you go as long as you do not stop.',
  'The journey of a thousand miles begins with one step.',
  'Knowing is not enough; we must apply. Willing is not enough; we must do.',
  'We are what we repeatedly do. Excellence, then, is not an act, but a habit.',
  'Nothing is particularly hard if you divide it into small jobs.',
  'The secret of getting ahead is getting started.',
  'Do not wait to strike till the iron is hot; but make it hot by striking.',
  'Energy and persistence conquer all things.',
  'Quality is never an accident; it is always the result of intelligent effort.',
  'What we fear doing most is usually what we most need to do.',
  'He who has a why to live can bear almost any how.',
  'In the middle of difficulty lies opportunity.',
  'Simplicity is the ultimate sophistication.',
  'The best time to plant a tree was twenty years ago. The second best time is now.',
  'Done is better than perfect, and shipped is better than done.',
  'Small daily improvements over time lead to stunning results that nobody expected at the start.',
  'Focus is a matter of deciding what things you are not going to do, and then protecting that decision every single day.',
];

const WORDS =
  'focus habit clarity momentum practice patience courage attention craft discipline energy rhythm progress ' +
  'deliberate uninterrupted internationalization responsibility extraordinary consistency experimentation ' +
  'a an the of to in is it we you our your day work mind time deep slow calm quiet build keep ship learn';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function generated(count: number, maxLength: number): string[] {
  const words = WORDS.split(/\s+/);
  const next = rng(7);
  return Array.from({ length: count }, (_, i) => {
    const target = 12 + Math.round(((maxLength - 12) * i) / (count - 1));
    let text = '';
    while (text.length < target) {
      const w = words[Math.floor(next() * words.length)]!;
      const sep = text ? (next() < 0.12 ? ', ' : ' ') : '';
      if ((text + sep + w).length > target) break;
      text += sep + w;
    }
    text = text.replace(/[, ]+$/, '');
    return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
  });
}

export const QUOTES: readonly string[] = [...REAL, ...generated(200 - REAL.length, 180)];
