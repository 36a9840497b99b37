import type { ContentPart } from '../connectors/types.js';
import type { LinksPort } from './ports.js';

const HAS_URL = /https?:\/\//i;

/**
 * A target's parts with their URLs replaced by the target's short links (the analytics service makes them once
 * per target and URL, so every try of the target, and its reconciliation, sees the same text). Unchanged when
 * shortening is not wired (`links` undefined) or the parts hold no URL; `first` is the pair stored on the target.
 */
export async function shortenParts(
  links: LinksPort | undefined,
  workspaceId: number,
  postAccountId: number,
  parts: ContentPart[],
): Promise<{ parts: ContentPart[]; first?: { shortUrl: string; originalUrl: string } | undefined }> {
  if (!links || !parts.some((p) => HAS_URL.test(p.body))) return { parts };
  const r = await links.shorten(
    workspaceId,
    postAccountId,
    parts.map((p) => p.body),
  );
  return { parts: parts.map((p, i) => ({ ...p, body: r.texts[i] ?? p.body })), first: r.first };
}
