import { AppError } from '@spa/errors';
import { describe, expect, it } from 'vitest';
import type { ComposeContext, NewPostContent, PostInput } from './compose-post.js';
import { validatePost } from './compose-post.js';
import { createPost } from './create-post.js';
import type { Post } from './model.js';
import type { PostsDeps, TargetAccount } from './ports.js';

const ACCOUNTS: TargetAccount[] = [
  { id: 1, platform: 'tiktok', username: 'tok', disconnected: false },
  { id: 2, platform: 'pinterest', username: 'pins', disconnected: false },
  { id: 3, platform: 'twitter', username: 'x', disconnected: false },
];
const ctx: ComposeContext = { now: new Date('2026-03-01T10:00:00Z'), settings: { reviewRequired: false }, accounts: ACCOUNTS };
const video = [{ r2_key: 'uploads/clip.mp4', type: 'video' }];
const image = [{ r2_key: 'uploads/card.jpg', type: 'image' }];

const input = (postContents: NewPostContent[], socialAccountIds: number[]): PostInput => ({ workspaceId: 7, body: 'Hello', postContents, socialAccountIds, source: 'api' });

describe('validatePost: per-platform options in a content metadata', () => {
  it('accepts each platform its own options', () => {
    const ok = input(
      [
        { platform: 'tiktok', metadata: { media: video, privacy_level: 'SELF_ONLY', disable_duet: true } },
        { platform: 'pinterest', metadata: { media: image, board_id: '549755885175', link: 'https://example.com/p', title: 'A pin', media_fit: 'crop' } },
        { platform: 'twitter', metadata: { media: image, media_fit: 'pad' } },
      ],
      [1, 2, 3],
    );
    expect(validatePost(ok, ctx)).toEqual([]);
  });

  it("refuses an option another platform reads and a wrong value, naming the content's field", () => {
    const bad = input(
      [
        { platform: 'twitter', metadata: { board_id: '123' } },
        { platform: 'pinterest', metadata: { media: image, board_id: 'board-1', link: 'javascript:alert(1)' } },
      ],
      [2, 3],
    );
    expect(validatePost(bad, ctx)).toEqual([
      'post_contents[0].metadata.board_id: only pinterest reads board_id; twitter does not',
      "post_contents[1].metadata.board_id: must be a Pinterest board id: 1 to 64 digits (GET /pinterest/boards lists an account's boards)",
      'post_contents[1].metadata.link: must be an http(s) URL of at most 2048 characters',
    ]);
  });

  it('refuses a TikTok content without a privacy level, also one made from the top-level body', () => {
    const given = validatePost(input([{ platform: 'tiktok', metadata: { media: video } }], [1]), ctx);
    expect(given).toEqual([expect.stringMatching(/^post_contents\[0\]\.metadata\.privacy_level: is required on tiktok: TikTok's own rules forbid a default/)]);
    const fromBody = validatePost(input([], [1]), ctx);
    expect(fromBody).toContainEqual(expect.stringMatching(/^tiktok \(from the top-level body\)\.metadata\.privacy_level: is required/));
  });
});

describe('createPost: the service refuses what the gateway refuses', () => {
  const stored: Post[] = [];
  let next = 100;
  const deps = {
    accounts: { workspaceSettings: async () => ({ reviewRequired: false }), socialAccounts: async (_w: number, ids: number[]) => ACCOUNTS.filter((a) => ids.includes(a.id)) },
    clock: { now: () => ctx.now },
    store: { nextIds: async (_kind: string, n: number) => Array.from({ length: n }, () => next++), insert: async (posts: Post[]) => void stored.push(...posts) },
    flushEvents: () => undefined,
  } as unknown as PostsDeps;

  it('answers 422 INVALID_PARAMETERS naming the missing TikTok privacy level, and stores nothing', async () => {
    const err = await createPost(deps, input([{ platform: 'tiktok', metadata: { media: video } }], [1])).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('INVALID_PARAMETERS');
    expect((err as AppError).httpStatus).toBe(422);
    expect((err as AppError).details).toEqual([expect.stringContaining('post_contents[0].metadata.privacy_level: is required on tiktok')]);
    expect(stored).toEqual([]);
  });

  it('stores the options in the content metadata, where the publisher reads them', async () => {
    const post = await createPost(deps, input([{ platform: 'tiktok', metadata: { media: video, privacy_level: 'MUTUAL_FOLLOW_FRIENDS', disable_comment: true } }], [1]));
    expect(post.postContents[0]!.metadata).toEqual({ media: video, privacy_level: 'MUTUAL_FOLLOW_FRIENDS', disable_comment: true });
    expect(stored.map((p) => p.id)).toEqual([post.id]);
  });
});
