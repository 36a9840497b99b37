import { countCharacters } from '@spa/platforms';
import { describe, expect, it } from 'vitest';
import { contentHash, pushKey, validateArticle, withLink } from './article.js';

describe('validateArticle', () => {
  const site = 'https://www.blog.example.com';
  it('accepts http(s) URLs on the site host (www. aside) and drops the fragment', () => {
    expect(validateArticle({ url: 'https://blog.example.com/a#top', title: ' A ' }, site)).toMatchObject({ url: 'https://blog.example.com/a', title: 'A' });
    expect(validateArticle({ url: 'http://WWW.blog.example.com/b', title: 'B' }, site).url).toBe('http://www.blog.example.com/b');
  });
  it('names url, title and image_url when they are wrong', () => {
    const problems = (input: Parameters<typeof validateArticle>[0]) => {
      try {
        validateArticle(input, site);
        return [];
      } catch (err) {
        return (err as { details?: string[] }).details ?? [];
      }
    };
    expect(problems({ url: 'https://blog.example.com.evil.net/a', title: 'x' }).join()).toContain('url must be on the site');
    expect(problems({ url: 'ftp://blog.example.com/a', title: 'x' }).join()).toContain('url must be an http or https URL');
    expect(problems({ url: 'https://blog.example.com/a', title: ' ' }).join()).toContain('title');
    expect(problems({ url: 'https://blog.example.com/a', title: 'x', imageUrl: 'data:,x' }).join()).toContain('image_url');
  });
});

describe('withLink', () => {
  const url = 'https://blog.example.com/2026/11/a-rather-long-article-address';
  it('ends with the link and fits the platform, cutting at a word', () => {
    const body = withLink('twitter', 'word '.repeat(100), url);
    expect(body.endsWith(`…\n\n${url}`)).toBe(true);
    expect(countCharacters('twitter', body)).toBeLessThanOrEqual(280);
    expect(withLink('linkedin', `Short text ${url}`, url)).toBe(`Short text\n\n${url}`);
  });
});

describe('identity', () => {
  it('changes the content hash with the content, and keys a push by site and URL', () => {
    const a = { url: 'https://x.example/a', title: 'T', excerpt: 'E' };
    expect(contentHash(a)).toBe(contentHash({ ...a }));
    expect(contentHash(a)).not.toBe(contentHash({ ...a, excerpt: 'E2' }));
    expect(pushKey(1, a.url)).not.toBe(pushKey(2, a.url));
  });
});
