import { ACCOUNT_HEALTHS, CONTENT_TYPES, EVENT_KINDS, PLATFORMS, POST_STATUSES } from '@spa/vocabulary';
import { describe, expect, it } from 'vitest';
import { accountHealthCodec, contentTypeCodec, createPostRequest, enumCodec, eventKindCodec, listPostsRequest, platformCodec, postStatusCodec } from './codecs.js';
import { EventKind } from './gen/events/v1/public.js';
import { Platform, PostStatus } from './gen/common/v1/vocabulary.js';

describe('enum codecs', () => {
  it('carry every word of the vocabulary to its own enum value and back', () => {
    for (const [codec, words] of [
      [platformCodec, PLATFORMS],
      [postStatusCodec, POST_STATUSES],
      [contentTypeCodec, CONTENT_TYPES],
      [eventKindCodec, EVENT_KINDS],
      [accountHealthCodec, ACCOUNT_HEALTHS],
    ] as const) {
      const values = words.map((w) => (codec.toProto as (w: string) => number)(w));
      expect(new Set(values).size).toBe(words.length);
      expect(values).not.toContain(0);
      expect(values.map((v) => (codec.fromProto as (v: number) => string | undefined)(v))).toEqual([...words]);
    }
    expect(platformCodec.toProto('google_business')).toBe(Platform.PLATFORM_GOOGLE_BUSINESS);
    expect(postStatusCodec.toProto('pending_review')).toBe(PostStatus.POST_STATUS_PENDING_REVIEW);
    // A word with a dot: its member has an underscore there.
    expect(eventKindCodec.toProto('image_week_run.completed')).toBe(EventKind.EVENT_KIND_IMAGE_WEEK_RUN_COMPLETED);
  });

  it('read the typed field first, the deprecated string only when the typed one is unset', () => {
    expect(postStatusCodec.decode(PostStatus.POST_STATUS_POSTED, 'draft')).toBe('posted');
    expect(postStatusCodec.decode(PostStatus.POST_STATUS_UNSPECIFIED, 'draft')).toBe('draft');
    expect(postStatusCodec.decode(PostStatus.POST_STATUS_UNSPECIFIED, 'sent')).toBeUndefined();
    expect(postStatusCodec.decode(PostStatus.POST_STATUS_UNSPECIFIED)).toBeUndefined();
    expect(postStatusCodec.decode(99 as PostStatus)).toBeUndefined();
    expect(() => postStatusCodec.require(PostStatus.POST_STATUS_UNSPECIFIED, '')).toThrow(/not a known word/);
  });

  it('refuse, at start-up, a vocabulary and an enum that differ', () => {
    expect(() => enumCodec(Platform, 'PLATFORM_', [...PLATFORMS, 'myspace'])).toThrow(/no member for "myspace"/);
    expect(() =>
      enumCodec(
        Platform,
        'PLATFORM_',
        PLATFORMS.filter((p) => p !== 'slack'),
      ),
    ).toThrow(/PLATFORM_SLACK/);
  });
});

describe('request builders', () => {
  it('fill the typed fields and leave the deprecated strings empty', () => {
    const list = listPostsRequest({ workspaceId: 7, statuses: ['scheduled'], platform: 'bluesky', sort: 'scheduled_at', direction: 'asc', limit: 20, offset: 0 });
    expect(list).toMatchObject({ states: [PostStatus.POST_STATUS_SCHEDULED], platformKind: Platform.PLATFORM_BLUESKY, statuses: [], sort: '', sortDirection: '' });
    const create = createPostRequest({ workspaceId: 7, body: 'hi', contents: [{ platform: 'mastodon', metadata: { media: [] } }], socialAccountIds: [1], source: 'api' });
    expect(create.state).toBe(PostStatus.POST_STATUS_UNSPECIFIED);
    expect(create.postContents[0]).toMatchObject({ platformKind: Platform.PLATFORM_MASTODON, metadata: { media: [] }, platform: '', metadataJson: '' });
  });
});
