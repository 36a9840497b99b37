/** http(s) URLs in a text: up to whitespace or a quote/bracket, without the sentence punctuation that may follow. */
const URL_PATTERN = /https?:\/\/[^\s<>"'“”‘’]+/gi;
const TRAILING = /[.,;:!?)\]}'"»]+$/;

/** The distinct http(s) URLs of the texts, in order of first appearance. */
export function findUrls(texts: readonly string[]): string[] {
  const out: string[] = [];
  for (const text of texts) {
    for (const match of text.matchAll(URL_PATTERN)) {
      const url = match[0].replace(TRAILING, '');
      if (url.length > 'https://'.length && !out.includes(url)) out.push(url);
    }
  }
  return out;
}

/** The texts with each URL of `replacements` (as findUrls found it) replaced by its short link; anything else unchanged. */
export function replaceUrls(texts: readonly string[], replacements: ReadonlyMap<string, string>): string[] {
  return texts.map((text) =>
    text.replace(URL_PATTERN, (match) => {
      const url = match.replace(TRAILING, '');
      const short = replacements.get(url);
      return short ? short + match.slice(url.length) : match;
    }),
  );
}
