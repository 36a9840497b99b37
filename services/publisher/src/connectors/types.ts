import type { MediaFacts, PostOptions } from '@spa/platforms';
import type { ContentType, Platform } from '@spa/vocabulary';

/**
 * One module per platform implements Connector, calling that platform's documented API at a
 * configurable base URL (the real API, or the loopback sandbox in tests and `scripts/up --sandbox`).
 * Connectors do not retry: they classify failures with ConnectorError and the publisher decides.
 */

/** What a connector needs to act for one connected account. */
export interface TargetAccount {
  socialAccountId: number;
  platform: Platform;
  username: string;
  /** Decrypted credentials: `access_token` always; platform-specific ids (e.g. `page_id`, `chat_id`, `instance_url`, `did`) when the platform needs them. */
  credentials: Readonly<Record<string, string>>;
}

export interface ContentPart {
  body: string;
  contentType: ContentType;
  /** 0-based; parts after the first are thread replies (where the platform has threads). */
  position: number;
  firstComment?: string | undefined;
  media: MediaItem[];
  poll?: { options: string[]; durationMinutes: number } | undefined;
  /** LinkedIn asset URN of an already-uploaded image, video or document. */
  assetUrn?: string | undefined;
  /** The platform's own choices from the content's metadata (Pinterest board, TikTok privacy, YouTube title...): see PostOptions. */
  options?: PostOptions | undefined;
}

export interface MediaItem {
  r2Key: string;
  type: 'image' | 'video' | 'document';
  /** A URL the platform can fetch (for platforms that pull media). */
  url: string;
  /** Reads the bytes (for platforms that take uploads). */
  read(): Promise<{ bytes: Buffer; contentType: string }>;
  /** What the file is (type, size, dimensions, duration, codecs), as the media service probed it; absent when not known. */
  facts?: MediaFacts | undefined;
}

export interface PublishRequest {
  target: TargetAccount;
  /** Ordered by position: one part for a single post, several for a thread. */
  parts: ContentPart[];
}

export interface Published {
  /** The platform's id of the (first) post. */
  platformPostId: string;
  permalink: string;
}

/** A post's counts as the platform reports them; null where the platform does not report that count (never a made-up 0). */
export interface PostMetrics {
  impressions: number | null;
  likes: number | null;
  replies: number | null;
  reposts: number | null;
  clicks: number | null;
}

export interface Connector {
  readonly platform: Platform;
  /**
   * False when the platform offers no way to look a post up after a lost answer (findPublished
   * always answers null): then an unknown outcome is final rather than retried, so nothing is
   * published twice. Default true.
   */
  readonly canReconcile?: boolean;
  publish(request: PublishRequest): Promise<Published>;
  /**
   * After an attempt whose outcome is unknown (the request may have been accepted), looks for the
   * post among the account's posts made since `since` with the same text of the first part; null when
   * it is not there (then it is safe to publish again).
   */
  findPublished(request: PublishRequest, since: Date): Promise<Published | null>;
  delete(target: TargetAccount, platformPostId: string): Promise<void>;
  fetchMetrics(target: TargetAccount, platformPostId: string): Promise<PostMetrics>;
  /** True when the credentials still work; ConnectorError kind `auth` otherwise. */
  validateCredentials(target: TargetAccount): Promise<boolean>;
  /**
   * Checks of this platform's own that `preflight` (connectors/preflight.ts) runs after the common
   * ones, without creating anything on the platform (read-only calls only). Optional.
   */
  preflight?(request: PublishRequest): Promise<void>;
}

export type ConnectorErrorKind =
  /** 5xx, a network error before the request was sent: safe to retry. */
  | 'transient'
  /** 429 or a platform quota: retry after `retryAfterMs`. */
  | 'rate_limited'
  /** The credentials are no longer valid: the account becomes disconnected. */
  | 'auth'
  /** The platform refused this post (4xx validation, policy): do not retry. */
  | 'rejected'
  /** Sent, but no answer (timeout, connection dropped): reconcile before any retry. */
  | 'unknown_outcome';

export class ConnectorError extends Error {
  override name = 'ConnectorError';
  constructor(
    readonly kind: ConnectorErrorKind,
    message: string,
    readonly retryAfterMs?: number,
    readonly status?: number,
  ) {
    super(message);
  }
}

/**
 * The platform no longer has the post (its author deleted it, the platform removed it): `rejected` with
 * status 404, whatever the platform answered (an empty list, a 400 naming a missing object), so the
 * publisher stops reading it instead of trying again.
 */
export function postGone(message: string): ConnectorError {
  return new ConnectorError('rejected', message, undefined, 404);
}

/** Whether a connector's error says the post no longer exists on the platform (see postGone). */
export function isPostGone(err: ConnectorError): boolean {
  return err.kind === 'rejected' && (err.status === 404 || err.status === 410);
}
