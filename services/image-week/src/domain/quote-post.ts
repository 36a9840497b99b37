import { CAPABILITIES, postOptionsOf, type PostOptions } from '@spa/platforms';
import type { NewQuotePost } from './ports.js';

/** Marker in a quote post's content metadata: finds the post again after a crash between creating and recording it. */
export const ITEM_MARKER = 'quote_week_item_id';
/** The run a quote post belongs to, in its content metadata. */
export const RUN_MARKER = 'quote_week_run_id';

/** `text` cut to at most `limit` characters (code points, as the platform counts), at a word when one ends near the limit. */
function cut(text: string, limit: number): string {
  const chars = [...text.trim()];
  if (chars.length <= limit) return chars.join('');
  const head = chars.slice(0, limit).join('');
  const space = head.lastIndexOf(' ');
  return (space >= limit / 2 ? head.slice(0, space) : head).trim();
}

/**
 * The per-platform choices of a quote card's post, in the content metadata the publisher reads them from
 * (board_id, link and title on Pinterest: the run's board and link, the quote as the pin's title).
 */
export function quotePostOptions(input: Pick<NewQuotePost, 'platform' | 'caption' | 'boardId' | 'link'>): PostOptions {
  if (input.platform !== 'pinterest') return {};
  return postOptionsOf({ board_id: input.boardId, link: input.link, title: cut(input.caption, CAPABILITIES.pinterest.title_limit ?? 100) });
}

/** The one content of a quote card's post: the quote as its text, the card as its image, the run's choices beside it. */
export function quotePostContent(input: NewQuotePost): { platform: NewQuotePost['platform']; body: string; contentType: 'image'; metadata: Record<string, unknown> } {
  return {
    platform: input.platform,
    body: input.caption,
    contentType: 'image',
    metadata: { media: [{ r2_key: input.r2Key, type: 'image' }], [ITEM_MARKER]: input.itemId, [RUN_MARKER]: input.runId, ...quotePostOptions(input) },
  };
}
