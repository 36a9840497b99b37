import { PLATFORMS } from '@spa/vocabulary';
import { describe, expect, it } from 'vitest';
import { checkPostOptions, PLATFORM_OPTION_FIELDS, postOptionProblems, postOptionsOf, TIKTOK_PRIVACY_LEVELS } from './options.js';

const at = 'post_contents[0].metadata';

describe('checkPostOptions: which platform reads which option', () => {
  it('refuses an option of another platform, naming the field and who reads it', () => {
    expect(checkPostOptions('twitter', { board_id: '123' }, at)).toEqual([`${at}.board_id: only pinterest reads board_id; twitter does not`]);
    expect(checkPostOptions('pinterest', { privacy_level: 'SELF_ONLY' }, at)).toEqual([`${at}.privacy_level: only tiktok reads privacy_level; pinterest does not`]);
    expect(checkPostOptions('linkedin', { title: 'Hi' }, at)).toEqual([`${at}.title: only youtube and pinterest read title; linkedin does not`]);
    expect(checkPostOptions('youtube', { media_fit: 'crop', title: 'A video' }, at)).toEqual([`${at}.media_fit: youtube does not read media_fit`]);
    expect(checkPostOptions('mastodon', { disable_duet: true, privacy_status: 'private' }, at)).toEqual([
      `${at}.disable_duet: only tiktok reads disable_duet; mastodon does not`,
      `${at}.privacy_status: only youtube reads privacy_status; mastodon does not`,
    ]);
  });

  it('accepts every option on the platforms that read it, and leaves other metadata keys alone', () => {
    const media = [{ r2_key: 'k', type: 'image' }];
    expect(checkPostOptions('pinterest', { media, board_id: '549755885175', link: 'https://example.com/a', title: 'A pin', media_fit: 'crop' }, at)).toEqual([]);
    expect(checkPostOptions('tiktok', { media, privacy_level: 'FOLLOWER_OF_CREATOR', disable_comment: true, disable_duet: false, disable_stitch: true, media_fit: 'pad' }, at)).toEqual([]);
    expect(checkPostOptions('youtube', { title: 'A video', privacy_status: 'unlisted' }, at)).toEqual([]);
    expect(checkPostOptions('twitter', { media, poll: { options: ['a', 'b'] }, quote_week_item_id: 4 }, at)).toEqual([]);
    expect(checkPostOptions('bluesky', undefined, at)).toEqual([]);
    // null is "not given", as postOptionsOf reads it.
    expect(checkPostOptions('twitter', { board_id: null }, at)).toEqual([]);
  });

  it('has a table entry for every platform, and media_fit on every platform that takes images', () => {
    for (const p of PLATFORMS) expect(PLATFORM_OPTION_FIELDS[p]).toBeDefined();
    expect(PLATFORMS.filter((p) => !PLATFORM_OPTION_FIELDS[p].includes('media_fit'))).toEqual(['youtube']);
  });
});

describe('checkPostOptions: values', () => {
  it('requires a Pinterest board id of digits, at most 64', () => {
    expect(checkPostOptions('pinterest', { board_id: '1'.repeat(64) }, at)).toEqual([]);
    for (const bad of ['', 'board-1', ' 123', '1'.repeat(65), 123, true]) {
      expect(checkPostOptions('pinterest', { board_id: bad }, at), String(bad)).toEqual([
        `${at}.board_id: must be a Pinterest board id: 1 to 64 digits (GET /pinterest/boards lists an account's boards)`,
      ]);
    }
  });

  it('requires an http(s) link of at most 2048 characters', () => {
    expect(checkPostOptions('pinterest', { link: `https://example.com/${'a'.repeat(2028)}` }, at)).toEqual([]);
    for (const bad of ['ftp://example.com', 'example.com', `https://example.com/${'a'.repeat(2029)}`, 42]) {
      expect(checkPostOptions('pinterest', { link: bad }, at)).toEqual([`${at}.link: must be an http(s) URL of at most 2048 characters`]);
    }
  });

  it("bounds a title by the platform's title limit, counted in characters", () => {
    expect(checkPostOptions('pinterest', { title: '😀'.repeat(100) }, at)).toEqual([]);
    expect(checkPostOptions('pinterest', { title: 'x'.repeat(101) }, at)).toEqual([`${at}.title: is 101 characters on pinterest; the limit is 100`]);
    expect(checkPostOptions('youtube', { title: 'y'.repeat(101) }, at)).toEqual([`${at}.title: is 101 characters on youtube; the limit is 100`]);
    expect(checkPostOptions('youtube', { title: '  ' }, at)).toEqual([`${at}.title: must be a non-empty string`]);
    expect(checkPostOptions('youtube', { title: 'a <b> title' }, at)).toEqual([`${at}.title: cannot contain < or > on youtube`]);
    expect(checkPostOptions('pinterest', { title: 'a <b> title' }, at)).toEqual([]);
  });

  it("takes TikTok's privacy levels and booleans, YouTube's privacy statuses and the two media fits", () => {
    for (const level of TIKTOK_PRIVACY_LEVELS) expect(checkPostOptions('tiktok', { privacy_level: level }, at)).toEqual([]);
    expect(checkPostOptions('tiktok', { privacy_level: 'public', disable_comment: 'yes', disable_stitch: 1 }, at)).toEqual([
      `${at}.privacy_level: must be one of PUBLIC_TO_EVERYONE, MUTUAL_FOLLOW_FRIENDS, FOLLOWER_OF_CREATOR, SELF_ONLY (a privacy level the creator's account offers)`,
      `${at}.disable_comment: must be true or false`,
      `${at}.disable_stitch: must be true or false`,
    ]);
    expect(checkPostOptions('youtube', { privacy_status: 'hidden' }, at)).toEqual([`${at}.privacy_status: must be one of public, unlisted, private`]);
    expect(checkPostOptions('instagram', { media_fit: 'stretch' }, at)).toEqual([`${at}.media_fit: must be one of pad, crop`]);
  });

  it('refuses a TikTok content without a privacy level, naming it: TikTok forbids a default', () => {
    const expected = [`${at}.privacy_level: is required on tiktok: TikTok's own rules forbid a default (one of PUBLIC_TO_EVERYONE, MUTUAL_FOLLOW_FRIENDS, FOLLOWER_OF_CREATOR, SELF_ONLY)`];
    expect(checkPostOptions('tiktok', { media: [] }, at)).toEqual(expected);
    expect(checkPostOptions('tiktok', undefined, at)).toEqual(expected);
    expect(postOptionProblems('tiktok', { privacy_level: null })).toEqual([{ field: 'privacy_level', message: expect.stringContaining('is required') }]);
    // Defaults that fill posts later (a content plan's platform_configs) are checked for what they give only.
    expect(checkPostOptions('tiktok', {}, at, { required: false })).toEqual([]);
    expect(checkPostOptions('tiktok', { privacy_level: 'ALL' }, at, { required: false })).toHaveLength(1);
  });

  it('reads back only the options of stored metadata', () => {
    expect(postOptionsOf({ media: [], board_id: '1', link: null, title: 'T' })).toEqual({ board_id: '1', title: 'T' });
  });
});
