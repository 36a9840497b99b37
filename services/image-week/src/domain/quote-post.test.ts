import { Post, PostsServiceService, type CreatePostRequest } from '@spa/contracts/posts/v1/posts';
import { AppError } from '@spa/errors';
import { bindService, startGrpcServer, type RunningGrpcServer } from '@spa/grpc';
import { createLogger } from '@spa/logger';
import { checkPostOptions } from '@spa/platforms';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postsPort } from '../grpc/clients.js';
import type { AccountsPort } from './ports.js';
import { quotePostContent } from './quote-post.js';
import { validateRun } from './validate-run.js';

// A real gRPC server standing in for the posts service: what a Quote Week post is created with.
let server: RunningGrpcServer;
const created: CreatePostRequest[] = [];
beforeAll(async () => {
  const handlers = { createPost: async (req: CreatePostRequest) => (created.push(req), { post: Post.fromPartial({ id: 900 + created.length }) }) };
  server = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    logger: createLogger('quote-post-test', 'silent'),
    services: [bindService('posts.v1.PostsService', PostsServiceService, handlers as never)],
  });
});
afterAll(async () => {
  await server?.shutdown();
});

const accounts: AccountsPort = {
  socialAccounts: async (_w, ids) => ids.map((id) => ({ id, platform: id === 5 ? 'pinterest' : 'instagram', username: `acct${id}`, disconnected: false })),
  postingSchedule: async () => undefined,
  plan: async () => ({ tier: 'pro', timezone: 'UTC' }),
};
const quote = 'Deep work grows when you protect the first hours of the day from meetings, messages and every small thing that asks for you';

describe("a Quote Week pin's board and link", () => {
  it("land in the created post's content metadata as board_id and link, with the quote as its title, as the posts service checks them", async () => {
    const settings = await validateRun(accounts, 1, {
      topic: 'focus',
      platformConfig: { pinterest: { social_account_id: 5, board_id: ' 549755885175 ', link: 'https://example.com/focus' }, instagram: { social_account_id: 6 } },
    });
    const pin = settings.targets.find((t) => t.platform === 'pinterest')!;
    const card = settings.targets.find((t) => t.platform === 'instagram')!;
    const port = postsPort(`127.0.0.1:${server.port}`, 5_000);
    try {
      const base = { workspaceId: 1, runId: 3, caption: quote, r2Key: 'ws/1/2026/03/card.png' };
      expect(await port.createPost({ ...base, itemId: 11, platform: 'pinterest', socialAccountId: pin.socialAccountId, boardId: pin.boardId, link: pin.link })).toBe(901);
      await port.createPost({ ...base, itemId: 12, platform: 'instagram', socialAccountId: card.socialAccountId, boardId: card.boardId, link: card.link });
    } finally {
      port.close();
    }
    const [pinned, carded] = created.slice(-2).map((r) => r.postContents[0]!.metadata as Record<string, unknown>);
    expect(pinned).toEqual({
      media: [{ r2_key: 'ws/1/2026/03/card.png', type: 'image' }],
      quote_week_item_id: 11,
      quote_week_run_id: 3,
      board_id: '549755885175',
      link: 'https://example.com/focus',
      title: 'Deep work grows when you protect the first hours of the day from meetings, messages and every small',
    });
    expect([...(pinned!.title as string)].length).toBeLessThanOrEqual(100);
    expect(checkPostOptions('pinterest', pinned, 'metadata')).toEqual([]);
    // Instagram reads none of Pinterest's choices: its card post carries none.
    expect(carded).toEqual({ media: [{ r2_key: 'ws/1/2026/03/card.png', type: 'image' }], quote_week_item_id: 12, quote_week_run_id: 3 });
    expect(checkPostOptions('instagram', carded, 'metadata')).toEqual([]);
  });

  it('refuses a board that is not a Pinterest board id and a link that is not http(s), as a post would be refused', async () => {
    const err = await validateRun(accounts, 1, { topic: 'focus', platformConfig: { pinterest: { social_account_id: 5, board_id: 'board-1', link: 'ftp://example.com' } } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).httpStatus).toBe(422);
    expect((err as AppError).details).toEqual([
      "platform_config.pinterest.board_id: must be a Pinterest board id: 1 to 64 digits (GET /pinterest/boards lists an account's boards)",
      'platform_config.pinterest.link: must be an http(s) URL of at most 2048 characters',
    ]);
    const missing = await validateRun(accounts, 1, { topic: 'focus', platformConfig: { pinterest: { social_account_id: 5 } } }).catch((e: unknown) => e);
    expect((missing as AppError).details).toEqual([
      'platform_config.pinterest.board_id is required for Pinterest (the board the pins go to)',
      'platform_config.pinterest.link is required for Pinterest (an http(s) URL the pins link to)',
    ]);
  });

  it('cuts a long quote to a title of 100 characters, counting an emoji once', () => {
    const content = quotePostContent({ workspaceId: 1, itemId: 1, runId: 1, platform: 'pinterest', socialAccountId: 5, caption: '🌱'.repeat(150), r2Key: 'k', boardId: '1', link: 'https://e.x' });
    expect(content.metadata.title).toBe('🌱'.repeat(100));
  });
});
