import { createHash } from 'node:crypto';
import { invalidParameters } from '@spa/errors';
import { CAPABILITIES, countCharacters } from '@spa/platforms';
import type { Platform } from '@spa/vocabulary';

/** What a site pushes: an article of its own, never fetched by us (only its text is used). */
export interface Article {
  url: string;
  title: string;
  excerpt?: string | undefined;
  content?: string | undefined;
  imageUrl?: string | undefined;
  publishedAt?: Date | undefined;
}

/** Field limits of a pushed article (characters); the gateway also caps the body's bytes. */
export const ARTICLE_LIMITS = { url: 2048, title: 500, excerpt: 5_000, content: 100_000, imageUrl: 2048 } as const;

/** The host a site's URLs are compared on: lower case, without a leading `www.`. */
const siteHost = (u: URL) => u.hostname.toLowerCase().replace(/^www\./, '');

function httpUrl(value: string, field: string, problems: string[]): URL | undefined {
  try {
    const u = new URL(value);
    if (u.protocol === 'http:' || u.protocol === 'https:') return u;
    problems.push(`${field} must be an http or https URL`);
  } catch {
    problems.push(`${field} must be an absolute http or https URL`);
  }
  return undefined;
}

/**
 * Checks an article against its site: `url` http(s) on the site's own host (`www.` aside), a title,
 * field sizes, an http(s) `image_url`. Returns the article with its URL normalised (no fragment).
 */
export function validateArticle(input: Article, siteUrl: string): Article {
  const problems: string[] = [];
  const long = (field: keyof typeof ARTICLE_LIMITS, name: string, v: string | undefined) => {
    if (v !== undefined && v.length > ARTICLE_LIMITS[field]) problems.push(`${name} must be at most ${ARTICLE_LIMITS[field]} characters`);
  };
  long('url', 'url', input.url);
  long('title', 'title', input.title);
  long('excerpt', 'excerpt', input.excerpt);
  long('content', 'content', input.content);
  long('imageUrl', 'image_url', input.imageUrl);
  if (!input.title.trim()) problems.push('title must not be empty');
  const url = httpUrl(input.url, 'url', problems);
  if (url && siteHost(url) !== siteHost(new URL(siteUrl))) problems.push(`url must be on the site's own host (${new URL(siteUrl).hostname})`);
  if (input.imageUrl !== undefined) httpUrl(input.imageUrl, 'image_url', problems);
  if (problems.length || !url) throw invalidParameters(problems);
  url.hash = '';
  return { ...input, url: url.toString(), title: input.title.trim() };
}

/** Identifies an article's content: a push with the same hash makes no new drafts. */
export function contentHash(a: Article): string {
  return createHash('sha256')
    .update(JSON.stringify([a.title, a.excerpt ?? '', a.content ?? '', a.imageUrl ?? '']))
    .digest('hex')
    .slice(0, 32);
}

/** The key of an article of a site: one push record per (site, URL). */
export const pushKey = (siteId: number, url: string): string => `${siteId}:${createHash('sha256').update(url).digest('hex').slice(0, 40)}`;

/** What the generation service is asked to write about (title, excerpt, then the start of the content). */
export function topicOf(a: Article): string {
  const text = (a.content ?? '')
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const parts = [a.title, a.excerpt?.trim(), text.slice(0, 600)].filter((p): p is string => !!p);
  return parts.join('. ').slice(0, 500);
}

/**
 * A post body for `platform` that ends with the article's link: the written text, cut at a word
 * boundary (with an ellipsis) so text, a blank line and the link fit the platform's limit.
 */
export function withLink(platform: Platform, text: string, url: string): string {
  const limit = CAPABILITIES[platform].character_limit;
  const cleaned = text.replace(url, '').trim();
  const fits = (t: string) => countCharacters(platform, `${t}\n\n${url}`) <= limit;
  if (fits(cleaned)) return `${cleaned}\n\n${url}`;
  const words = cleaned.split(/(\s+)/);
  while (words.length && !fits(`${words.join('').trimEnd()}…`)) words.pop();
  const cut = words.join('').trimEnd();
  return cut ? `${cut}…\n\n${url}` : url;
}
