import { describe, expect, it } from 'vitest';
import { PLATFORMS, type Platform } from '@spa/vocabulary';
import { CAPABILITIES } from './capabilities.js';
import { checkPostContent, type PostContentInput } from './check.js';

const FAMILY = '👨‍👩‍👧‍👦'; // 1 grapheme, 25 UTF-8 bytes
const URL = 'https://example.com/' + 'x'.repeat(100); // 120 code points, weighted 23 on X

function check(platform: Platform, content: Partial<PostContentInput>, where = 'post_contents[1]'): string[] {
  const base: PostContentInput = { body: 'hello', contentType: 'text', imageCount: 0, hasVideo: false, hasDocument: false };
  return checkPostContent(platform, { ...base, ...content }, where);
}

describe('checkPostContent: a valid post', () => {
  it.each(PLATFORMS)('passes on %s', (platform) => {
    const [first] = CAPABILITIES[platform].content_types;
    expect(check(platform, { contentType: first!, imageCount: first === 'image' ? 1 : 0, hasVideo: first === 'video' })).toEqual([]);
  });
});

describe('checkPostContent: body length', () => {
  it('X: 280 weighted is fine, 281 is too long', () => {
    expect(check('twitter', { body: 'a'.repeat(280) })).toEqual([]);
    expect(check('twitter', { body: 'a'.repeat(281) })).toEqual(['post_contents[1].body is 281 characters on twitter (weighted); the limit is 280']);
  });

  it('X: a URL counts 23 whatever its length, CJK counts 2', () => {
    expect(check('twitter', { body: `${'a'.repeat(256)} ${URL}` })).toEqual([]);
    expect(check('twitter', { body: `${'a'.repeat(267)} ${URL}` })).toEqual(['post_contents[1].body is 291 characters on twitter (weighted); the limit is 280']);
    expect(check('twitter', { body: '日'.repeat(140) })).toEqual([]);
    expect(check('twitter', { body: '日'.repeat(141) })).toEqual(['post_contents[1].body is 282 characters on twitter (weighted); the limit is 280']);
  });

  it('Bluesky: 300 graphemes (with a family emoji) is fine, 301 is too long', () => {
    expect(check('bluesky', { body: 'a'.repeat(299) + FAMILY })).toEqual([]);
    expect(check('bluesky', { body: 'a'.repeat(300) + FAMILY })).toEqual(['post_contents[1].body is 301 characters on bluesky (graphemes); the limit is 300']);
  });

  it('Bluesky: 3000 UTF-8 bytes is fine, 3001+ is too long even within 300 graphemes', () => {
    expect(check('bluesky', { body: FAMILY.repeat(120) })).toEqual([]);
    expect(check('bluesky', { body: FAMILY.repeat(121) })).toEqual(['post_contents[1].body is 3025 bytes on bluesky (UTF-8); the limit is 3000']);
    expect(check('bluesky', { body: FAMILY.repeat(301) })).toEqual([
      'post_contents[1].body is 301 characters on bluesky (graphemes); the limit is 300',
      'post_contents[1].body is 7525 bytes on bluesky (UTF-8); the limit is 3000',
    ]);
  });

  it('other platforms count code points', () => {
    expect(check('threads', { body: '😀'.repeat(500) })).toEqual([]);
    expect(check('threads', { body: 'a'.repeat(501) }, 'post_contents[0]')).toEqual(['post_contents[0].body is 501 characters on threads; the limit is 500']);
  });

  it('Telegram: the caption limit applies once media is attached', () => {
    const body = 'a'.repeat(1025);
    expect(check('telegram', { body })).toEqual([]);
    expect(check('telegram', { body, contentType: 'image', imageCount: 1 })).toEqual(['post_contents[1].body is 1025 characters on telegram; the limit with media attached is 1024']);
  });
});

describe('checkPostContent: content types and attachments', () => {
  it('rejects a content type the platform does not publish', () => {
    expect(check('twitter', { contentType: 'document', hasDocument: true })).toEqual([
      "post_contents[1].content_type is 'document', which twitter does not support (supported: text, image, video, poll)",
    ]);
    expect(check('instagram', { contentType: 'poll', pollOptions: ['a', 'b'], imageCount: 1 })).toEqual([
      "post_contents[1].content_type is 'poll', which instagram does not support (supported: image, video)",
    ]);
  });

  it('rejects a text-only post on a media-required platform', () => {
    expect(check('instagram', {})).toEqual([
      "post_contents[1].content_type is 'text', which instagram does not support (supported: image, video)",
      'post_contents[1] has no media; instagram requires an image or a video',
    ]);
    expect(check('youtube', { contentType: 'video' })).toEqual(['post_contents[1] has no media; youtube requires a video']);
  });

  it('rejects a document anywhere but LinkedIn', () => {
    expect(check('linkedin', { contentType: 'document', hasDocument: true })).toEqual([]);
    expect(check('twitter', { hasDocument: true })).toEqual(['post_contents[1] includes a document, which twitter does not support']);
  });

  it('rejects a poll anywhere but X and LinkedIn', () => {
    expect(check('threads', { pollOptions: ['yes', 'no'] })).toEqual(['post_contents[1] includes a poll, which threads does not support']);
  });

  it('rejects images or video where the platform does not take them', () => {
    expect(check('youtube', { contentType: 'video', hasVideo: true, imageCount: 1 })).toEqual(['post_contents[1] includes images, which youtube does not support']);
    expect(check('google_business', { hasVideo: true })).toEqual(['post_contents[1] includes a video, which google_business does not support']);
  });

  it('rejects more images than the platform allows', () => {
    expect(check('twitter', { contentType: 'image', imageCount: 4 })).toEqual([]);
    expect(check('twitter', { contentType: 'image', imageCount: 5 })).toEqual(['post_contents[1] has 5 images on twitter; the limit is 4']);
    expect(check('google_business', { contentType: 'image', imageCount: 2 })).toEqual(['post_contents[1] has 2 images on google_business; the limit is 1']);
  });
});

describe('checkPostContent: polls', () => {
  const poll = (pollOptions: string[] | undefined, extra: Partial<PostContentInput> = {}) => ({ contentType: 'poll' as const, pollOptions, ...extra });

  it('accepts 2 to 4 options within the option length', () => {
    expect(check('twitter', poll(['a'.repeat(25), 'b', 'c', 'd']))).toEqual([]);
    expect(check('linkedin', poll(['a'.repeat(30), 'b']))).toEqual([]);
  });

  it('needs 2 to 4 options', () => {
    expect(check('twitter', poll(undefined))).toEqual(['post_contents[1].poll_options has 0 options on twitter; it needs 2 to 4']);
    expect(check('twitter', poll(['only']))).toEqual(['post_contents[1].poll_options has 1 option on twitter; it needs 2 to 4']);
    expect(check('linkedin', poll(['a', 'b', 'c', 'd', 'e']))).toEqual(['post_contents[1].poll_options has 5 options on linkedin; it needs 2 to 4']);
  });

  it('limits each option to 25 characters on X and 30 on LinkedIn', () => {
    expect(check('twitter', poll(['yes', 'no', 'a'.repeat(26)]))).toEqual(['post_contents[1].poll_options[2] is 26 characters on twitter; the limit is 25']);
    expect(check('linkedin', poll(['a'.repeat(31), 'no']))).toEqual(['post_contents[1].poll_options[0] is 31 characters on linkedin; the limit is 30']);
  });

  it('cannot carry media', () => {
    expect(check('linkedin', poll(['yes', 'no'], { imageCount: 1 }))).toEqual(['post_contents[1].poll_options cannot be combined with media on linkedin']);
  });
});
