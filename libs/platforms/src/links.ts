/** Longest link a post or pin may carry (Pinterest's destination links and the like). */
export const MAX_LINK_LENGTH = 2048;

/** Whether `value` is an absolute http(s) URL with a host, at most MAX_LINK_LENGTH characters (e.g. a pin's link). */
export function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > MAX_LINK_LENGTH) return false;
  try {
    const u = new URL(value);
    return (u.protocol === 'http:' || u.protocol === 'https:') && !!u.hostname;
  } catch {
    return false;
  }
}
