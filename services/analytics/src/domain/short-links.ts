import { findUrls, replaceUrls } from './link-text.js';
import { knownCounts, type Metrics, type Track } from './model.js';
import type { ShortLink, ShortLinkDeps } from './ports.js';

export interface ShortenedTexts {
  texts: string[];
  /** The target's first link (short and original URL); undefined when the texts have no link or shortening is off. */
  first?: { shortUrl: string; originalUrl: string } | undefined;
}

/** Dub's externalId of a target's n-th link: one link per target and URL, so clicks are attributed to the platform. */
export const externalIdOf = (postAccountId: number, index: number) => `spa_pa_${postAccountId}_${index}`;

/**
 * At publish time: every http(s) URL of a target's texts replaced by a Dub short link of its own. Each link is made
 * once: stored under `<post_account_id>:<index>` (a unique insert) and created at Dub with an externalId, so a retry
 * (or a publisher that died mid-way) gets the very same links and the very same text, which is what the publisher's
 * reconciliation compares. Links are made with the workspace's Dub key; with the workspace's shortening off (its
 * preference) the texts are unchanged.
 */
export async function shortenLinks(links: ShortLinkDeps | undefined, input: { workspaceId: number; postAccountId: number; texts: string[] }): Promise<ShortenedTexts> {
  const urls = findUrls(input.texts);
  if (!links || urls.length === 0) return { texts: input.texts };
  const { enabled, dub } = await links.dubFor(input.workspaceId);
  if (!enabled || !dub) return { texts: input.texts };
  const known = new Map((await links.store.linksOf(input.postAccountId)).map((l) => [l.index, l]));
  const made: ShortLink[] = [];
  for (const [index, url] of urls.entries()) {
    const existing = known.get(index);
    if (existing && existing.originalUrl === url) {
      made.push(existing);
      continue;
    }
    const created = await dub.createLink(url, externalIdOf(input.postAccountId, index));
    made.push(await links.store.insert({ postAccountId: input.postAccountId, workspaceId: input.workspaceId, index, originalUrl: url, shortUrl: created.shortUrl, dubLinkId: created.linkId }));
  }
  return {
    texts: replaceUrls(input.texts, new Map(made.map((l) => [l.originalUrl, l.shortUrl]))),
    first: { shortUrl: made[0]!.shortUrl, originalUrl: made[0]!.originalUrl },
  };
}

/**
 * A snapshot's counts with Dub's clicks: a target whose links were shortened counts the clicks Dub saw on its links
 * (the platform's own link clicks would count the same clicks again, and several platforms report none). When Dub
 * cannot be asked now (or the workspace has no key any more), the clicks already known stay (the next fetch catches
 * up), so the series never goes back; before any are known they are null (unknown), never 0. The clicks are read whether or not shortening is still on: the links exist.
 */
export async function withLinkClicks(links: ShortLinkDeps | undefined, track: Track, metrics: Metrics, onError: (err: unknown) => void): Promise<Metrics> {
  if (!links || !track.dubLinkIds?.length) return metrics;
  try {
    const { dub } = await links.dubFor(track.workspaceId);
    if (!dub) throw new Error(`workspace ${track.workspaceId} has no Dub API key to read its links' clicks with`);
    const counts = await Promise.all(track.dubLinkIds.map((id) => dub.clicks(id)));
    return { ...metrics, clicks: counts.reduce((a, b) => a + b, 0) };
  } catch (err) {
    onError(err);
    return { ...metrics, clicks: knownCounts(track).clicks };
  }
}
