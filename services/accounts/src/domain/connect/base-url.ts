import { invalidParameters } from '@spa/errors';

/** A server's base URL as a user enters it (a Mastodon instance, a Bluesky PDS): http(s), no query or fragment; answered without a trailing slash. */
export function checkBaseUrl(raw: string, field: string, example: string): string {
  const problem = `${field} must be the server's base URL, e.g. ${example}`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidParameters([problem]);
  }
  if (!['https:', 'http:'].includes(url.protocol) || url.search || url.hash || url.username || url.password) throw invalidParameters([problem]);
  return url.toString().replace(/\/+$/, '');
}
