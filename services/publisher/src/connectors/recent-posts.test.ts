import { describe, expect, it } from 'vitest';
import { findInPages } from './recent-posts.js';

const pages = [
  [9, 8, 7],
  [6, 5, 4],
  [3, 2, 1],
];
const fetchPage = (reads: number[]) => async (cursor: string | undefined) => {
  const index = cursor === undefined ? 0 : Number(cursor);
  reads.push(index);
  return { items: pages[index] ?? [], next: index + 1 < pages.length ? String(index + 1) : undefined };
};

describe('findInPages', () => {
  it('reads older pages until it finds the item', async () => {
    const reads: number[] = [];
    expect(
      await findInPages(
        fetchPage(reads),
        (n) => n === 2,
        () => false,
      ),
    ).toBe(2);
    expect(reads).toEqual([0, 1, 2]);
  });

  it('stops at the end of the window, at the last page, and at the page cap', async () => {
    const reads: number[] = [];
    expect(
      await findInPages(
        fetchPage(reads),
        (n) => n === 2,
        (n) => n < 6,
      ),
    ).toBeUndefined();
    expect(reads).toEqual([0, 1]);
    expect(
      await findInPages(
        fetchPage([]),
        (n) => n === 42,
        () => false,
      ),
    ).toBeUndefined();
    const capped: number[] = [];
    expect(
      await findInPages(
        fetchPage(capped),
        (n) => n === 1,
        () => false,
        2,
      ),
    ).toBeUndefined();
    expect(capped).toEqual([0, 1]);
  });
});
