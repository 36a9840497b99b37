/**
 * The card templates: a background and palette each. `TEMPLATE_VERSION` names the set and is stored on every run,
 * so a run's cards can be told apart from cards of a later set. The test set renders text no reader can read
 * (selected by config only, to exercise the verify loop's failure path).
 */

export interface Template {
  id: string;
  /** Background gradient, top to bottom. */
  background: [string, string];
  text: string;
  accent: string;
  /** Opacity of the quote text (1 in the real sets). */
  textOpacity: number;
  /** Font sizes (px at 1080 wide) tried from the first. */
  sizes: readonly number[];
}

const SIZES = [88, 80, 72, 66, 60, 54, 48, 44, 40, 36] as const;

export const TEMPLATE_SETS: Record<string, readonly Template[]> = {
  'quote-cards-v1': [
    { id: 'midnight', background: ['#1d3557', '#0b1d33'], text: '#f1faee', accent: '#e9c46a', textOpacity: 1, sizes: SIZES },
    { id: 'paper', background: ['#fdf6e3', '#efe3c8'], text: '#222222', accent: '#b5523b', textOpacity: 1, sizes: SIZES },
    { id: 'forest', background: ['#2d6a4f', '#1b4332'], text: '#ffffff', accent: '#95d5b2', textOpacity: 1, sizes: SIZES },
    { id: 'coral', background: ['#e76f51', '#c8553d'], text: '#ffffff', accent: '#fde2c4', textOpacity: 1, sizes: SIZES },
  ],
  // Test only: text nearly the colour of the background and tiny, so the read-back never matches.
  'test-unreadable': [{ id: 'unreadable', background: ['#808080', '#808080'], text: '#818181', accent: '#808080', textOpacity: 0.3, sizes: [9, 8, 7, 6] }],
};

export const DEFAULT_TEMPLATE_VERSION = 'quote-cards-v1';
