import type { ContentType, Platform, PlatformStatus, PostStatus } from '@spa/vocabulary';

/** A target's latest metric snapshot: each count null when the platform does not report it (never a made-up 0). */
export interface PostMetric {
  impressions: number | null;
  likes: number | null;
  replies: number | null;
  reposts: number | null;
  clicks: number | null;
  /** (likes + replies + reposts + clicks, those reported) / impressions; null when impressions are 0 or unknown, or no interaction is reported. */
  engagementRate: number | null;
  fetchedAt: Date;
}

export interface PostContent {
  id: number;
  platform: Platform;
  body: string;
  contentType: ContentType;
  position: number;
  firstComment?: string | undefined;
  metadata: Record<string, unknown>;
}

export interface PostAccount {
  id: number;
  socialAccountId: number;
  platform: Platform;
  username: string;
  platformStatus?: PlatformStatus | undefined;
  platformPostId?: string | undefined;
  permalink?: string | undefined;
  platformError?: string | undefined;
  dubShortUrl?: string | undefined;
  dubOriginalUrl?: string | undefined;
  postMetric?: PostMetric | undefined;
}

/** The request that last asked for work on a post (its request id and trace context), resumed by the scheduler. */
export interface RequestOrigin {
  requestId?: string | undefined;
  traceparent?: string | undefined;
  tracestate?: string | undefined;
}

export interface Post {
  /** Who asked last (logs and traces of the scheduled work continue that request's); opaque here. */
  origin?: RequestOrigin | undefined;
  id: number;
  workspaceId: number;
  status: PostStatus;
  flexible: boolean;
  scheduledAt?: Date | undefined;
  postedAt?: Date | undefined;
  failedAt?: Date | undefined;
  postError?: string | undefined;
  disconnected: boolean;
  source: string;
  recurrenceJitterEnabled: boolean;
  evergreen: boolean;
  evergreenVariations: string[];
  /** Days from an evergreen post's posting to its next recurrence (see recurrence.ts). */
  recurrenceIntervalDays: number;
  recycledFromId?: number | undefined;
  reviewedAt?: Date | undefined;
  reviewAction?: string | undefined;
  rejectionReason?: string | undefined;
  createdAt: Date;
  updatedAt: Date;
  body: string;
  postContents: PostContent[];
  postAccounts: PostAccount[];
  dryRun: boolean;
}

/** The post as the dispatcher's move to publishing (at `at`) leaves it. */
export const movedToPublishing = (post: Post, at: Date): Post => ({ ...post, status: 'publishing', updatedAt: at });

/** An event the posts service owes the rest of the system; kept in the outbox until published. */
export interface PostEvent {
  subject: 'posts.post.created' | 'posts.post.reviewed' | 'posts.post.updated' | 'posts.post.deleted' | 'posts.post.terminal';
  /** Unique per event; NATS drops a repeated one (Nats-Msg-Id). */
  msgId: string;
  workspaceId: number;
  postId: number;
  /** The post's status after the change. */
  status: string;
  reviewAction?: string | undefined;
  occurredAt: Date;
  /** created, updated, reviewed: when the post is to be published after the change (absent without a time). */
  scheduledAt?: Date | undefined;
  /** updated: the post's status and time before the change. */
  previous?: { status: string; scheduledAt?: Date | undefined } | undefined;
  /** posts.post.terminal: the post was a dry run. */
  dryRun?: boolean | undefined;
  /** posts.post.terminal: the outcome per target. */
  platforms?:
    | Array<{ postAccountId: number; socialAccountId: number; platform: string; platformStatus: string; platformPostId: string; platformError?: string | undefined; dubShortUrl?: string | undefined }>
    | undefined;
  /** posts.post.terminal: the post is evergreen or a recycle of one (its posting may be recycled). */
  recyclable?: boolean | undefined;
}

/** A claim that one dispatcher sends a due post to the publisher (unique per post and due time). */
export interface Dispatch {
  id: string;
  workspaceId: number;
  postId: number;
  claimedAt: Date;
  jobSentAt?: Date | undefined;
}
