import { listPostsRequest } from '@spa/contracts/codecs';
import type { Post, PostsServiceClient } from '@spa/contracts/posts/v1/posts';
import type { PromiseClient } from '@spa/grpc';
import { POST_STATUSES, type PostSort, type PostStatus } from '@spa/vocabulary';
import type { PostHistory } from '../../domain/writing/ports.js';
import { rankByEngagement } from './best-performing.js';

const PAGE_MAX = 200;
/** Statuses an approved post can be in after its review (approval makes it scheduled or a draft, then it moves on). */
const AFTER_REVIEW = POST_STATUSES.filter((s) => s !== 'pending_review');

/** PostHistory over the posts service's ListPosts. */
export class GrpcPostHistory implements PostHistory {
  constructor(
    private readonly posts: Pick<PromiseClient<PostsServiceClient>, 'listPosts'>,
    /** The workspace's `use_post_metrics_for_ai`: when on, the best-performing posted posts are the samples. */
    private readonly usesPostMetrics: (workspaceId: number) => Promise<boolean> = async () => false,
  ) {}

  async recentBodies(workspaceId: number, limit: number): Promise<string[]> {
    const posts = await this.list(workspaceId, [...POST_STATUSES], 'created_at', limit);
    return posts.flatMap(bodiesOf);
  }

  /** Posted posts and approved posts, newest first, distinct, at most `limit`. */
  async voiceSamples(workspaceId: number, limit: number): Promise<string[]> {
    if (await this.usesPostMetrics(workspaceId)) {
      const ranked = rankByEngagement(await this.list(workspaceId, ['posted'], 'created_at', PAGE_MAX)).slice(0, limit);
      if (ranked.length) return ranked.map((p) => mainBody(p)).filter(Boolean);
    }
    const [posted, reviewed] = await Promise.all([this.list(workspaceId, ['posted'], 'created_at', limit), this.list(workspaceId, AFTER_REVIEW, 'created_at', PAGE_MAX)]);
    const approved = reviewed.filter((p) => p.reviewAction === 'approved');
    const byId = new Map<number, Post>();
    for (const p of [...posted, ...approved]) byId.set(p.id, p);
    return [...byId.values()]
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id - a.id)
      .slice(0, limit)
      .map((p) => mainBody(p))
      .filter(Boolean);
  }

  private async list(workspaceId: number, statuses: PostStatus[], sort: PostSort, limit: number): Promise<Post[]> {
    const { posts } = await this.posts.listPosts(listPostsRequest({ workspaceId, statuses, sort, direction: 'desc', limit: Math.min(limit, PAGE_MAX), offset: 0 }));
    return posts;
  }
}

/** The text of a post: its top-level body, else its first content's body. */
function mainBody(p: Post): string {
  return p.body.trim() || p.postContents.find((c) => c.body.trim())?.body.trim() || '';
}

/** Every distinct text of a post (top-level body and per-platform bodies). */
function bodiesOf(p: Post): string[] {
  return [...new Set([p.body, ...p.postContents.map((c) => c.body)].map((b) => b.trim()).filter(Boolean))];
}
