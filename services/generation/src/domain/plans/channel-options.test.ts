import { ImageWeekRun, ImageWeekServiceClient, ImageWeekServiceService, type CreateRunRequest } from '@spa/contracts/image_week/v1/image_week';
import { Post, PostsServiceClient, PostsServiceService, type CreatePostRequest } from '@spa/contracts/posts/v1/posts';
import { bindService, createClient, startGrpcServer, type RunningGrpcServer } from '@spa/grpc';
import { createLogger } from '@spa/logger';
import { checkPostOptions } from '@spa/platforms';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postsPort, quoteWeekPort } from '../../grpc/clients/plans-ports.js';
import { writeChannelPosts } from './channel-posts.js';
import type { Channel, PlanRun, RunItem } from './model.js';
import type { PlansDeps } from './ports.js';
import { startQuoteWeek } from './quote-card-channel.js';
import { buildChannels, channelPostOptions, planFieldProblems } from './validate-plan.js';

// Real gRPC servers standing in for the posts and image-week services: what the plan's posts and Quote Week runs are created with.
let server: RunningGrpcServer;
const posts: CreatePostRequest[] = [];
const runs: CreateRunRequest[] = [];
beforeAll(async () => {
  server = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    logger: createLogger('channel-options-test', 'silent'),
    services: [
      bindService('posts.v1.PostsService', PostsServiceService, { createPost: async (req: CreatePostRequest) => (posts.push(req), { post: Post.fromPartial({ id: 500 + posts.length }) }) } as never),
      bindService('image_week.v1.ImageWeekService', ImageWeekServiceService, {
        createRun: async (req: CreateRunRequest) => (runs.push(req), { imageWeekRun: ImageWeekRun.fromPartial({ id: 70 + runs.length }) }),
      } as never),
    ],
  });
});
afterAll(async () => {
  await server?.shutdown();
});

const channel = (c: Partial<Channel> & Pick<Channel, 'platform' | 'socialAccountId'>): Channel => ({ format: 'post', angles: [], postsPerDay: 1, watermarkEnabled: false, active: true, ...c });

function depsFor(): { deps: PlansDeps; items: RunItem[]; close(): void } {
  const items: RunItem[] = [];
  const address = `127.0.0.1:${server.port}`;
  const postsClient = createClient(PostsServiceClient, address);
  const imageWeekClient = createClient(ImageWeekServiceClient, address);
  const deps = {
    store: {
      runItems: async (runId: string, ci: number) => items.filter((i) => i.runId === runId && i.channelIndex === ci),
      insertItem: async (item: RunItem) => (items.push(item), true),
      updateItem: async (runId: string, ci: number, n: number, patch: Partial<RunItem>) =>
        void Object.assign(
          items.find((i) => i.runId === runId && i.channelIndex === ci && i.n === n)!,
          patch,
        ),
    },
    posts: postsPort(postsClient),
    quoteWeek: quoteWeekPort(imageWeekClient),
    writer: { write: async (req: { count: number }) => ({ bodies: Array.from({ length: req.count }, (_, i) => `Plan post ${i}`), degradedCount: 0, model: 'test' }) },
    clock: { now: () => new Date('2026-03-02T09:00:00Z') },
  } as unknown as PlansDeps;
  return { deps, items, close: () => (postsClient.close(), imageWeekClient.close()) };
}

const planRun = (channels: Channel[], platformConfigs: Record<string, unknown>): PlanRun => ({
  id: '4:manual:test',
  planId: 4,
  workspaceId: 9,
  trigger: 'manual',
  localDate: '2026-03-02',
  snapshot: { planId: 4, name: 'Calm', topic: 'calm productivity', scheduleMode: 'draft', channels, dryRun: false, platformConfigs },
  status: 'running',
  attempt: 1,
  owner: 'test',
  leaseUntil: new Date('2026-03-02T10:00:00Z'),
  startedAt: new Date('2026-03-02T09:00:00Z'),
  postsCreated: 0,
  ideasCreated: 0,
  itemsFailed: 0,
});

describe("a content plan's choices on the posts it creates", () => {
  it("a Pinterest quote_card channel's Quote Week run carries the channel's board and the plan's link, which its pins take as board_id and link", async () => {
    const pins = channel({ platform: 'pinterest', socialAccountId: 31, format: 'quote_card', boardId: '549755885175' });
    const run = planRun([pins], { pinterest: { link: 'https://example.com/calm' } });
    const { deps, items, close } = depsFor();
    try {
      await startQuoteWeek(deps, run, 0, pins);
    } finally {
      close();
    }
    expect(items).toMatchObject([{ channelIndex: 0, n: 0, imageWeekRunId: 71 }]);
    expect(JSON.parse(runs.at(-1)!.platformConfigJson)).toEqual({ pinterest: { social_account_id: 31, board_id: '549755885175', link: 'https://example.com/calm' } });
  });

  it("a text channel's posts carry the plan's platform_configs choices for that platform in their content metadata", async () => {
    const linkedin = channel({ platform: 'linkedin', socialAccountId: 32 });
    const run = planRun([linkedin], { linkedin: { media_fit: 'crop', tone: 'calm' }, twitter: { media_fit: 'pad' } });
    const { deps, items, close } = depsFor();
    try {
      await writeChannelPosts(deps, run, 0, linkedin, new AbortController().signal);
    } finally {
      close();
    }
    expect(items.map((i) => i.postId)).toEqual([500 + posts.length]);
    const sent = posts.at(-1)!;
    expect(sent.socialAccountIds).toEqual([32]);
    expect(sent.postContents).toHaveLength(1);
    expect(sent.postContents[0]).toMatchObject({ body: 'Plan post 0', metadata: { media_fit: 'crop' } });
    expect(checkPostOptions('linkedin', sent.postContents[0]!.metadata, 'metadata')).toEqual([]);
    // Without choices, the post is its body alone, as before.
    const plain = planRun([linkedin], {});
    const second = depsFor();
    try {
      await writeChannelPosts(second.deps, plain, 0, linkedin, new AbortController().signal);
    } finally {
      second.close();
    }
    expect(posts.at(-1)!.postContents).toEqual([]);
  });

  it("fills a post's options from platform_configs, a Pinterest channel's board winning", () => {
    const configs = { pinterest: { board_id: '1', link: 'https://example.com/p', title: 'Pins', note: 'kept aside' }, tiktok: { privacy_level: 'FOLLOWER_OF_CREATOR', disable_duet: true } };
    expect(channelPostOptions(configs, { platform: 'pinterest', boardId: '2' })).toEqual({ board_id: '2', link: 'https://example.com/p', title: 'Pins' });
    expect(channelPostOptions(configs, { platform: 'tiktok' })).toEqual({ privacy_level: 'FOLLOWER_OF_CREATOR', disable_duet: true });
    expect(channelPostOptions(undefined, { platform: 'twitter' })).toEqual({});
  });
});

describe("a content plan's choices are checked as a post's are", () => {
  it('refuses an option another platform reads and a wrong value in platform_configs, naming the field', () => {
    expect(planFieldProblems({ platformConfigs: { twitter: { board_id: '1', hashtags: false }, tiktok: { privacy_level: 'ALL' }, youtube: { privacy_status: 'private' } } }, false)).toEqual([
      'content_plan.platform_configs.twitter.board_id: only pinterest reads board_id; twitter does not',
      "content_plan.platform_configs.tiktok.privacy_level: must be one of PUBLIC_TO_EVERYONE, MUTUAL_FOLLOW_FRIENDS, FOLLOWER_OF_CREATOR, SELF_ONLY (a privacy level the creator's account offers)",
    ]);
  });

  it("refuses a channel board that is not a Pinterest board id, and a board on a channel that is not Pinterest's", () => {
    const accounts = [
      { id: 1, platform: 'pinterest' as const, disconnected: false },
      { id: 2, platform: 'twitter' as const, disconnected: false },
    ];
    const problems: string[] = [];
    const built = buildChannels(
      [
        { socialAccountId: 1, boardId: 'board-7', angles: [] },
        { socialAccountId: 2, boardId: '7', angles: [] },
      ],
      accounts,
      problems,
    );
    expect(built.map((c) => c.platform)).toEqual(['pinterest', 'twitter']);
    expect(problems).toEqual([
      "content_plan.channels[0].board_id: must be a Pinterest board id: 1 to 64 digits (GET /pinterest/boards lists an account's boards)",
      'content_plan.channels[1].board_id: only pinterest reads board_id; twitter does not',
    ]);
    const fine: string[] = [];
    expect(buildChannels([{ socialAccountId: 1, boardId: ' 1007 ', angles: [] }], accounts, fine)[0]!.boardId).toBe('1007');
    expect(fine).toEqual([]);
  });
});
