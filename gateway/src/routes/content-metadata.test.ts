import { AppError } from '@spa/errors';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { validate } from '../http/validate.js';
import { CreatePlanBody } from './content-plan-shapes.js';
import { BulkCreatePostsBodySchema, CreatePostBodySchema, UpdatePostBodySchema } from './schemas.js';

const image = [{ r2_key: 'ws/1/2026/03/card.jpg', type: 'image' }];
const video = [{ r2_key: 'ws/1/2026/03/clip.mp4', type: 'video' }];

/** The 422 details the gateway answers for a create request with these contents (empty when it is accepted). */
function refusal(schema: z.ZodType, body: unknown): string[] {
  try {
    validate(schema, body, 'request body');
    return [];
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('INVALID_PARAMETERS');
    expect((err as AppError).httpStatus).toBe(422);
    return (err as AppError).details ?? [];
  }
}
const create = (post_contents: unknown[]) => refusal(CreatePostBodySchema, { post: { body: 'Hello', post_contents } });

describe('POST /posts: per-platform choices in a content metadata', () => {
  it("accepts each platform's own choices and other metadata keys", () => {
    expect(
      create([
        { platform: 'pinterest', metadata: { media: image, board_id: '549755885175', link: 'https://example.com/a', title: 'A pin', media_fit: 'crop' } },
        { platform: 'tiktok', metadata: { media: video, privacy_level: 'SELF_ONLY', disable_comment: true, disable_duet: false, disable_stitch: true } },
        { platform: 'youtube', metadata: { media: video, title: 'A video', privacy_status: 'private' } },
        { platform: 'instagram', metadata: { media: image, media_fit: 'pad', quote_week_item_id: 3 } },
        { platform: 'twitter' },
      ]),
    ).toEqual([]);
  });

  it('answers 422 naming a field another platform reads', () => {
    expect(create([{ platform: 'twitter', metadata: { board_id: '123' } }])).toEqual(['post.post_contents[0].metadata.board_id: only pinterest reads board_id; twitter does not']);
    expect(create([{ platform: 'pinterest', metadata: { media: image, privacy_status: 'public' } }])).toEqual([
      'post.post_contents[0].metadata.privacy_status: only youtube reads privacy_status; pinterest does not',
    ]);
    expect(create([{ platform: 'youtube', metadata: { media: video, media_fit: 'crop' } }])).toEqual(['post.post_contents[0].metadata.media_fit: youtube does not read media_fit']);
  });

  it.each([
    ['pinterest', { board_id: 'board-1' }, 'board_id: must be a Pinterest board id'],
    ['pinterest', { board_id: '1'.repeat(65) }, 'board_id: must be a Pinterest board id'],
    ['pinterest', { link: 'ftp://example.com/a' }, 'link: must be an http(s) URL of at most 2048 characters'],
    ['pinterest', { link: `https://example.com/${'a'.repeat(2048)}` }, 'link: must be an http(s) URL of at most 2048 characters'],
    ['pinterest', { title: 'p'.repeat(101) }, 'title: is 101 characters on pinterest; the limit is 100'],
    ['youtube', { title: 'y'.repeat(101) }, 'title: is 101 characters on youtube; the limit is 100'],
    ['youtube', { privacy_status: 'friends' }, 'privacy_status: must be one of public, unlisted, private'],
    ['tiktok', { privacy_level: 'EVERYONE' }, 'privacy_level: must be one of PUBLIC_TO_EVERYONE, MUTUAL_FOLLOW_FRIENDS, FOLLOWER_OF_CREATOR, SELF_ONLY'],
    ['tiktok', { privacy_level: 'SELF_ONLY', disable_comment: 'true' }, 'disable_comment: must be true or false'],
    ['tiktok', { privacy_level: 'SELF_ONLY', disable_duet: 0 }, 'disable_duet: must be true or false'],
    ['tiktok', { privacy_level: 'SELF_ONLY', disable_stitch: null, media_fit: 'fill' }, 'media_fit: must be one of pad, crop'],
  ])('answers 422 for a bad value on %s: %j', (platform, options, detail) => {
    const details = create([{ platform, metadata: { media: platform === 'pinterest' ? image : video, ...options } }]);
    expect(details).toHaveLength(1);
    expect(details[0]).toContain(`post.post_contents[0].metadata.${detail}`);
  });

  it("answers 422 for a TikTok content without a privacy level: TikTok's own rules forbid a default", () => {
    const expected = "post.post_contents[0].metadata.privacy_level: is required on tiktok: TikTok's own rules forbid a default";
    expect(create([{ platform: 'tiktok', metadata: { media: video } }])[0]).toContain(expected);
    expect(create([{ platform: 'tiktok' }])[0]).toContain(expected);
  });

  it('checks every post of a bulk create and the contents of a patch the same way', () => {
    const bulk = refusal(BulkCreatePostsBodySchema, {
      posts: [
        { body: 'fine', post_contents: [{ platform: 'tiktok', metadata: { media: video, privacy_level: 'SELF_ONLY' } }] },
        { body: 'not', post_contents: [{ platform: 'linkedin', metadata: { link: 'https://example.com' } }] },
      ],
    });
    expect(bulk).toEqual(['posts[1].post_contents[0].metadata.link: only pinterest reads link; linkedin does not']);
    const patch = refusal(UpdatePostBodySchema, { post: { post_contents: [{ platform: 'tiktok', metadata: { media: video } }] } });
    expect(patch).toEqual([expect.stringContaining('post.post_contents[0].metadata.privacy_level: is required on tiktok')]);
  });
});

describe("POST /content_plans: platform_configs give each platform's choices, checked as a post's are", () => {
  const plan = (platform_configs: unknown) => refusal(CreatePlanBody, { content_plan: { name: 'Calm', schedule_day: 1, schedule_time: '09:00', platform_configs } });

  it('accepts choices of the platform they are given for, and other keys; a TikTok default privacy level is not required', () => {
    expect(plan({ pinterest: { link: 'https://example.com/calm', board_id: '549755885175' }, tiktok: {}, twitter: { hashtags: false, media_fit: 'crop' } })).toEqual([]);
  });

  it('answers 422 naming an option of another platform or a wrong value', () => {
    expect(plan({ twitter: { board_id: '1' }, youtube: { privacy_status: 'secret' } })).toEqual([
      'content_plan.platform_configs.twitter.board_id: only pinterest reads board_id; twitter does not',
      'content_plan.platform_configs.youtube.privacy_status: must be one of public, unlisted, private',
    ]);
  });
});
