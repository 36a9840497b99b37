/**
 * A platform's refusal in words. Connectors record what the platform answered (`POST /2/tweets answered 403:
 * {"detail":"..."}`); the reader gets the platform's own message, and the status it came with.
 */
const MESSAGE_KEYS = ['detail', 'message', 'error_description', 'error_message', 'description', 'title', 'error', 'msg', 'errors', 'error_user_msg'];

/** The first human sentence in a platform's JSON error body (nested `error` objects and `errors` arrays included). */
function messageIn(body: unknown, depth = 0): string | undefined {
  if (depth > 4 || body === null || body === undefined) return undefined;
  if (typeof body === 'string') return body.trim() || undefined;
  if (Array.isArray(body)) {
    for (const item of body) {
      const m = messageIn(item, depth + 1);
      if (m) return m;
    }
    return undefined;
  }
  if (typeof body !== 'object') return undefined;
  const record = body as Record<string, unknown>;
  // A message beats a bare code (`{"error":"ExpiredToken","message":"Token has expired"}`).
  for (const key of MESSAGE_KEYS) {
    const value = record[key];
    if (typeof value === 'string' && /\s/.test(value.trim())) return value.trim();
  }
  for (const key of MESSAGE_KEYS) {
    const m = messageIn(record[key], depth + 1);
    if (m) return m;
  }
  return undefined;
}

const STATUS_WORDS: Record<number, string> = {
  400: 'refused the post',
  401: 'no longer accepts this connection',
  403: 'refused the post',
  404: 'could not find what the post refers to',
  409: 'refused the post as a conflict',
  413: 'found the media too large',
  415: 'does not take this kind of media',
  422: 'refused the post',
  429: 'asked to slow down',
};

export interface PlatformReason {
  /** What went wrong, in words. */
  text: string;
  /** The raw record, kept for support when it says more than `text`. */
  raw: string | undefined;
}

export function platformReason(error: string, platform = 'The platform'): PlatformReason {
  const match = /answered (\d{3}): ([\s\S]*)$/.exec(error);
  if (!match) return { text: error, raw: undefined };
  const status = Number(match[1]);
  const rest = match[2]!.trim();
  let body: unknown = rest;
  try {
    body = JSON.parse(rest);
  } catch {
    /* not JSON: the text as it came */
  }
  const message = messageIn(body);
  const what = STATUS_WORDS[status] ?? (status >= 500 ? 'had an error of its own' : 'refused the post');
  const prefix = error
    .slice(0, match.index)
    .replace(/\s*(POST|GET|PUT|PATCH|DELETE)\s+\S+\s*$/, '')
    .trim();
  const lead = prefix ? `${prefix[0]!.toUpperCase()}${prefix.slice(1)} ` : '';
  const text = `${lead}${platform} ${what} (${status})${message ? `: ${message}` : '.'}`;
  return { text, raw: error };
}
