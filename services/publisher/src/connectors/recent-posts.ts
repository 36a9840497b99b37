/** One page of an account's posts, newest first, and the cursor of the next (older) page. */
export interface Page<T> {
  items: T[];
  next?: string | undefined;
}

/**
 * Walks an account's posts newest first, page by page, until one matches, a page reaches posts
 * older than the search window, or `maxPages` pages were read. Reconciliation needs this: an account
 * may have published many posts since the one being looked for.
 */
export async function findInPages<T>(
  fetchPage: (cursor: string | undefined) => Promise<Page<T>>,
  matches: (item: T) => boolean,
  isBeforeWindow: (item: T) => boolean,
  maxPages = 20,
): Promise<T | undefined> {
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const { items, next } = await fetchPage(cursor);
    const found = items.find(matches);
    if (found) return found;
    if (!next || !items.length || items.some(isBeforeWindow)) return undefined;
    cursor = next;
  }
  return undefined;
}
