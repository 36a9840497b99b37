import {
  ACCOUNT_HEALTHS,
  DISCONNECT_REASONS,
  EVENT_KINDS,
  PUBLISH_ERROR_CLASSES,
  REFRESH_OUTCOMES,
  CONTENT_TYPES,
  PLATFORMS,
  PLATFORM_STATUSES,
  POST_SORTS,
  POST_STATUSES,
  SORT_DIRECTIONS,
  type ContentType as ContentTypeWord,
  type Platform as PlatformWord,
  type PlatformStatus as PlatformStatusWord,
  type PostSort as PostSortWord,
  type PostStatus as PostStatusWord,
  type SortDirection as SortDirectionWord,
  type AccountHealth as AccountHealthWord,
  type DisconnectReason as DisconnectReasonWord,
  type EventKind as EventKindWord,
  type PublishErrorClass as PublishErrorClassWord,
  type RefreshOutcome as RefreshOutcomeWord,
} from '@spa/vocabulary';
import { AccountHealth, DisconnectReason, PublishErrorClass, RefreshOutcome } from './gen/accounts/v1/accounts.js';
import { EventKind } from './gen/events/v1/public.js';
import { ContentType, Platform, PostStatus } from './gen/common/v1/vocabulary.js';
import { PlatformStatus, PostSort, SortDirection, type CreatePostRequest, type ListPostsRequest, type NewPostContent } from './gen/posts/v1/posts.js';

/**
 * One closed vocabulary (`'pending_review'`) as it travels over gRPC (`POST_STATUS_PENDING_REVIEW = 2`). The
 * enum member of a word is the enum's prefix plus the word in capitals, a dot as an underscore (`post.created`:
 * `EVENT_KIND_POST_CREATED`); the codec is built from both lists
 * and throws at start-up when they differ, so a word added on one side only can never travel.
 */
export interface EnumCodec<W extends string, E extends number> {
  readonly words: readonly W[];
  toProto(word: W): E;
  /** The word of an enum value; undefined for the unset value (0) and for a number this build does not know. */
  fromProto(value: E): W | undefined;
  /** The word itself when it belongs to the vocabulary. */
  fromWord(word: string): W | undefined;
  /**
   * The word a message carries: its typed field, or, when that is unset, the deprecated string field beside it
   * (filled by peers built before the typed fields, during a rolling deploy). Undefined when neither holds a word.
   */
  decode(value: E, legacy?: string): W | undefined;
  /** As decode, for a field that is always set: a value that is neither is a broken peer, an error. */
  require(value: E, legacy?: string): W;
}

export function enumCodec<W extends string, E extends number>(enumObject: Record<string, string | number>, prefix: string, words: readonly W[]): EnumCodec<W, E> {
  const toProto = new Map<W, E>();
  const fromProto = new Map<number, W>();
  for (const word of words) {
    const value = enumObject[prefix + word.toUpperCase().replaceAll('.', '_')];
    if (typeof value !== 'number' || value === 0) throw new Error(`proto enum ${prefix}* has no member for "${word}"`);
    toProto.set(word, value as E);
    fromProto.set(value, word);
  }
  const extra = Object.entries(enumObject)
    .filter(([, value]) => typeof value === 'number' && value !== 0 && !fromProto.has(value))
    .map(([name]) => name);
  if (extra.length) throw new Error(`proto enum members with no vocabulary word: ${extra.join(', ')}`);
  const known = new Set<string>(words);
  const fromWord = (word: string): W | undefined => (known.has(word) ? (word as W) : undefined);
  const decode = (value: E, legacy?: string): W | undefined => (value !== 0 ? fromProto.get(value) : legacy ? fromWord(legacy) : undefined);
  return {
    words,
    toProto: (word) => toProto.get(word)!,
    fromProto: (value) => fromProto.get(value),
    fromWord,
    decode,
    require: (value, legacy) => {
      const word = decode(value, legacy);
      if (word === undefined) throw new Error(`${prefix}* value ${value} (${JSON.stringify(legacy ?? '')}) is not a known word`);
      return word;
    },
  };
}

export const platformCodec = enumCodec<PlatformWord, Platform>(Platform, 'PLATFORM_', PLATFORMS);
export const postStatusCodec = enumCodec<PostStatusWord, PostStatus>(PostStatus, 'POST_STATUS_', POST_STATUSES);
export const contentTypeCodec = enumCodec<ContentTypeWord, ContentType>(ContentType, 'CONTENT_TYPE_', CONTENT_TYPES);
export const platformStatusCodec = enumCodec<PlatformStatusWord, PlatformStatus>(PlatformStatus, 'PLATFORM_STATUS_', PLATFORM_STATUSES);
export const postSortCodec = enumCodec<PostSortWord, PostSort>(PostSort, 'POST_SORT_', POST_SORTS);
export const sortDirectionCodec = enumCodec<SortDirectionWord, SortDirection>(SortDirection, 'SORT_DIRECTION_', SORT_DIRECTIONS);
export const eventKindCodec = enumCodec<EventKindWord, EventKind>(EventKind, 'EVENT_KIND_', EVENT_KINDS);
export const accountHealthCodec = enumCodec<AccountHealthWord, AccountHealth>(AccountHealth, 'ACCOUNT_HEALTH_', ACCOUNT_HEALTHS);
export const refreshOutcomeCodec = enumCodec<RefreshOutcomeWord, RefreshOutcome>(RefreshOutcome, 'REFRESH_OUTCOME_', REFRESH_OUTCOMES);
export const publishErrorClassCodec = enumCodec<PublishErrorClassWord, PublishErrorClass>(PublishErrorClass, 'PUBLISH_ERROR_CLASS_', PUBLISH_ERROR_CLASSES);
export const disconnectReasonCodec = enumCodec<DisconnectReasonWord, DisconnectReason>(DisconnectReason, 'DISCONNECT_REASON_', DISCONNECT_REASONS);

/** A post list request in the vocabulary's words (the deprecated string fields left empty). */
export interface PostListQuery {
  workspaceId: number;
  /** Empty or absent: the queue statuses. */
  statuses?: readonly PostStatusWord[] | undefined;
  source?: string | undefined;
  scheduledAfter?: string | undefined;
  scheduledBefore?: string | undefined;
  platform?: PlatformWord | undefined;
  sort?: PostSortWord | undefined;
  direction?: SortDirectionWord | undefined;
  limit: number;
  offset: number;
}

export function listPostsRequest(q: PostListQuery): ListPostsRequest {
  return {
    workspaceId: q.workspaceId,
    states: (q.statuses ?? []).map(postStatusCodec.toProto),
    source: q.source,
    scheduledAfter: q.scheduledAfter,
    scheduledBefore: q.scheduledBefore,
    platformKind: q.platform ? platformCodec.toProto(q.platform) : Platform.PLATFORM_UNSPECIFIED,
    sortField: q.sort ? postSortCodec.toProto(q.sort) : PostSort.POST_SORT_UNSPECIFIED,
    direction: q.direction ? sortDirectionCodec.toProto(q.direction) : SortDirection.SORT_DIRECTION_UNSPECIFIED,
    limit: q.limit,
    offset: q.offset,
    statuses: [],
    sort: '',
    sortDirection: '',
  };
}

/** One platform's content of a new post, in the vocabulary's words. */
export interface NewContent {
  platform: PlatformWord;
  body?: string | undefined;
  contentType?: ContentTypeWord | undefined;
  position?: number | undefined;
  firstComment?: string | undefined;
  metadata?: Record<string, unknown> | undefined;
}

export function newPostContent(c: NewContent): NewPostContent {
  return {
    platformKind: platformCodec.toProto(c.platform),
    body: c.body,
    contentKind: c.contentType ? contentTypeCodec.toProto(c.contentType) : ContentType.CONTENT_TYPE_UNSPECIFIED,
    position: c.position,
    firstComment: c.firstComment,
    metadata: c.metadata ?? {},
    platform: '',
    metadataJson: '',
  };
}

/** A post to create, in the vocabulary's words; what is left out takes the contract's default. */
export interface NewPostInput {
  workspaceId: number;
  body: string;
  /** Absent: the contract's default (draft, or scheduled when scheduled_at is given). */
  status?: 'draft' | 'scheduled' | undefined;
  scheduledAt?: string | undefined;
  flexible?: boolean | undefined;
  recurrenceJitterEnabled?: boolean | undefined;
  evergreen?: boolean | undefined;
  evergreenVariations?: string[] | undefined;
  recurrenceIntervalDays?: number | undefined;
  dryRun?: boolean | undefined;
  contents?: NewContent[] | undefined;
  socialAccountIds: number[];
  source: string;
}

export function createPostRequest(p: NewPostInput): CreatePostRequest {
  return {
    workspaceId: p.workspaceId,
    body: p.body,
    state: p.status ? postStatusCodec.toProto(p.status) : PostStatus.POST_STATUS_UNSPECIFIED,
    scheduledAt: p.scheduledAt,
    flexible: p.flexible ?? false,
    recurrenceJitterEnabled: p.recurrenceJitterEnabled ?? false,
    evergreen: p.evergreen ?? false,
    evergreenVariations: p.evergreenVariations ?? [],
    recurrenceIntervalDays: p.recurrenceIntervalDays,
    dryRun: p.dryRun ?? false,
    postContents: (p.contents ?? []).map(newPostContent),
    socialAccountIds: p.socialAccountIds,
    source: p.source,
    status: '',
  };
}
