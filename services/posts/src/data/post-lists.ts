import type { PostStatus } from '@spa/vocabulary';
import type { Model } from 'mongoose';
import type { Post } from '../domain/model.js';
import type { ListPostsQuery, ListPostsResult } from '../domain/ports.js';
import { selectPage } from './list-entries.js';
import type { PostListIndex } from './list-index.js';

const SORT_FIELDS: Record<ListPostsQuery['sort'], string> = {
  scheduled_at: 'scheduled_at',
  created_at: 'created_at',
  posted_at: 'posted_at',
  id: '_id',
};

/**
 * Lists a workspace's posts: the page, total and counts from the list index (list-index.ts), then the
 * page's posts by id (an indexed equality find each). Until a workspace's index is built (its posts
 * predate the index) the store's own query answers, and the build starts in the background.
 */
export class PostLists<Doc> {
  constructor(
    private readonly posts: Model<Doc>,
    private readonly index: PostListIndex,
    private readonly toPost: (doc: Doc) => Post,
  ) {}

  async list(q: ListPostsQuery): Promise<ListPostsResult> {
    const state = await this.index.read(q.workspaceId);
    if (!state.built) {
      this.index.backfillInBackground(q.workspaceId);
      return this.byQuery(q);
    }
    const page = selectPage(this.index.entries(state), q);
    this.index.compactIfDue(state);
    // Each by `_id` alone, the workspace checked here: a lookup naming another indexed field can be planned
    // from that one and read every post of the workspace (docs/local-store.md).
    const docs = await Promise.all(page.ids.map((id) => this.posts.findById(id).lean<Doc & { workspace_id: number }>()));
    // A post deleted since the index was read is left out of the page.
    const found = docs.filter((d): d is NonNullable<typeof d> => d !== null && d.workspace_id === q.workspaceId);
    return { posts: found.map((d) => this.toPost(d)), totalCount: page.totalCount, counts: page.counts };
  }

  /** The store's own query: what a list answered before the index, and the reference it must equal. */
  async byQuery(q: ListPostsQuery): Promise<ListPostsResult> {
    const base: Record<string, unknown> = { workspace_id: q.workspaceId };
    if (q.source) base.source = q.source;
    if (q.scheduledAfter || q.scheduledBefore) {
      base.scheduled_at = {
        ...(q.scheduledAfter ? { $gte: q.scheduledAfter } : {}),
        ...(q.scheduledBefore ? { $lte: q.scheduledBefore } : {}),
      };
    }
    if (q.platform) base.$or = [{ 'post_accounts.platform': q.platform }, { 'post_contents.platform': q.platform }];
    const filter = { ...base, status: { $in: q.statuses } };
    const direction = q.sortDirection === 'asc' ? 1 : -1;
    const sortField = SORT_FIELDS[q.sort];
    const sort: Record<string, 1 | -1> = sortField === '_id' ? { _id: direction } : { [sortField]: direction, _id: direction };
    const [docs, totalCount, grouped] = await Promise.all([
      this.posts.find(filter).sort(sort).skip(q.offset).limit(q.limit).lean<Doc[]>(),
      this.posts.countDocuments(filter),
      this.posts.aggregate<{ _id: string; n: number }>([{ $match: base }, { $group: { _id: '$status', n: { $sum: 1 } } }]),
    ]);
    const counts: Partial<Record<PostStatus, number>> = {};
    for (const g of grouped) counts[g._id as PostStatus] = g.n;
    return { posts: docs.map(this.toPost), totalCount, counts };
  }
}
