import { randomUUID } from 'node:crypto';
import type { InspectedMedia } from './media/inspect.js';
import { SandboxOAuth } from './oauth/store.js';

/** A post as a sandbox platform stored it. */
export interface SandboxPost {
  id: string;
  platform: string;
  /** The account it was made for (the bearer token's account). */
  account: string;
  text: string;
  /** Everything else the request said (reply target, media ids, poll, board, privacy…). */
  details: Record<string, unknown>;
  /**
   * What the post really carried, in order: each media item as the platform read it from the uploaded or
   * fetched bytes (type, size, dimensions, duration, codecs). Empty for a text post. Tests read this to
   * prove what reached the platform, not what we meant to send.
   */
  media: InspectedMedia[];
  createdAt: Date;
}

/** A file uploaded to a platform (or registered with it) and not yet used, with what the platform read of it. */
export interface SandboxUpload {
  platform: string;
  /** Declared size or received size, bytes. */
  bytes: number;
  /** The declared or category type the client sent (kept for the stand-ins that answer with it). */
  contentType: string;
  /** The account that uploaded it, where the upload carries a token. */
  account?: string | undefined;
  /** What the platform read from the bytes, once they have all arrived. */
  facts?: InspectedMedia | undefined;
  /** Multi-step uploads: where the upload stands (X's and Bluesky's processing, Pinterest's registration...). */
  status?: string | undefined;
  /** Multi-step uploads: the pieces received so far, by index. */
  chunks?: Map<number, Buffer> | undefined;
  /** Anything else the stand-in keeps of the upload (processing checks remaining, declared duration...). */
  extra?: Record<string, unknown> | undefined;
}

/** One platform call as the sandbox received it. */
export interface SandboxRequestRecord {
  platform: string;
  method: string;
  path: string;
  /** The route is a create (a post, reply, comment or message): what a dry run must never reach. */
  creates: boolean;
  account: string | undefined;
  at: Date;
}

export type Fault = 'server_error' | 'rate_limited' | 'auth' | 'timeout' | 'drop_after_accept';
/** Which requests a fault hits: creates (default) or metrics reads. */
export type FaultTarget = 'create' | 'metrics';

/** The sandbox's memory: posts per platform, creates per request key, faults waiting to fire. */
/** A chat as the sandbox's Telegram bots see it, and what the bot is in it. */
export interface TelegramChat {
  id: number;
  type: 'channel' | 'supergroup' | 'group' | 'private';
  title: string;
  username?: string | undefined;
  /** The bot's ChatMember status there (administrator by default). */
  bot_status: 'administrator' | 'member' | 'restricted' | 'left' | 'kicked';
  /** Channels: the administrator's right to post (true by default). */
  can_post_messages: boolean;
}

const keyOf = (...parts: Array<string | undefined>): string => parts.map((p) => p ?? '').join('\u0000');

export class SandboxState {
  /** Every post, oldest first (read it; posts are added and removed through the methods below, which keep the indexes). */
  readonly posts: SandboxPost[] = [];
  /**
   * Indexes of `posts`, kept by the methods below: the posts of each platform, oldest first; each post by platform
   * and id; each post by its create's idempotency key. Not private: tests type the state from both the sources and
   * the build, and a private member would make those two different classes to the type checker.
   */
  readonly byPlatform = new Map<string, SandboxPost[]>();
  readonly byId = new Map<string, SandboxPost>();
  readonly byIdempotencyKey = new Map<string, SandboxPost>();
  readonly media = new Map<string, SandboxUpload>();
  /** Faults waiting to fire; one with an `account` hits only that account's calls (tests sharing one sandbox stay apart). */
  readonly faults: Array<{ platform: string; fault: Fault; remaining: number; on: FaultTarget; account?: string }> = [];
  /** Every platform call received (not the control endpoints), oldest first: what a test checks was never asked. */
  readonly requests: SandboxRequestRecord[] = [];
  /** The platforms' authorization servers: codes, issued tokens, refreshes. */
  readonly oauth = new SandboxOAuth();
  /** Telegram chats the sandbox bots know (getChat, getChatMember), by id and by @username. */
  readonly telegramChats = new Map<string, TelegramChat>();
  /** Latency added to every platform call (ms), for benchmarks. */
  latencyMs = 0;
  /**
   * How fast reported metrics grow: a post's counts are its base counts × (1 + this × minutes since it
   * was made). 0 (the default) keeps them constant, as connector tests expect.
   */
  metricsGrowthPerMinute = 0;

  /** Queues `times` faults for `platform`'s creates (or metrics reads); with `account`, only for that account's calls. */
  addFault(platform: string, fault: Fault, times = 1, on: FaultTarget = 'create', account?: string): void {
    this.faults.push({ platform, fault, remaining: times, on, ...(account === undefined ? {} : { account }) });
  }

  /** The fault to apply to the next create (or metrics read) on `platform` by `account`, if any (consumed). */
  takeFault(platform: string, on: FaultTarget = 'create', account?: string): Fault | undefined {
    const entry = this.faults.find((f) => (f.platform === platform || f.platform === '*') && f.remaining > 0 && f.on === on && (f.account === undefined || f.account === account));
    if (!entry) return undefined;
    entry.remaining -= 1;
    return entry.fault;
  }

  /** A metric of `post` now: `base` grown with the post's age (see metricsGrowthPerMinute). */
  grow(post: SandboxPost, base: number): number {
    const minutes = (Date.now() - post.createdAt.getTime()) / 60_000;
    return Math.round(base * (1 + this.metricsGrowthPerMinute * minutes));
  }

  createPost(platform: string, account: string, text: string, details: Record<string, unknown> = {}, id = randomUUID().replace(/-/g, '').slice(0, 18), media: InspectedMedia[] = []): SandboxPost {
    const post = { id, platform, account, text, details, media, createdAt: new Date() };
    this.posts.push(post);
    const ofPlatform = this.byPlatform.get(platform);
    if (ofPlatform) ofPlatform.push(post);
    else this.byPlatform.set(platform, [post]);
    this.byId.set(keyOf(platform, id), post);
    if (typeof details.idempotencyKey === 'string') this.byIdempotencyKey.set(keyOf(platform, account, details.idempotencyKey), post);
    return post;
  }

  postsOf(platform: string, account?: string): SandboxPost[] {
    const ofPlatform = this.byPlatform.get(platform) ?? [];
    return account === undefined ? [...ofPlatform] : ofPlatform.filter((p) => p.account === account);
  }

  /** The account's post made by a create that carried this idempotency key (`details.idempotencyKey`), if any. */
  postByIdempotencyKey(platform: string, account: string | undefined, key: string): SandboxPost | undefined {
    return this.byIdempotencyKey.get(keyOf(platform, account, key));
  }

  /**
   * One page of the account's posts, newest first, starting after the post `after` (a cursor, as the
   * platforms' `max_id` / `cursor` / `pagination_token` do); `next` is the cursor of the following page.
   */
  page(posts: SandboxPost[], limit: number, after?: string | null): { items: SandboxPost[]; next: string | undefined } {
    const newestFirst = [...posts].reverse();
    const start = after ? newestFirst.findIndex((p) => p.id === after) + 1 : 0;
    const items = newestFirst.slice(start, start + limit);
    return { items, next: start + limit < newestFirst.length ? items.at(-1)?.id : undefined };
  }

  find(platform: string, id: string): SandboxPost | undefined {
    return this.byId.get(keyOf(platform, id));
  }

  remove(platform: string, id: string): boolean {
    const post = this.find(platform, id);
    if (!post) return false;
    this.posts.splice(this.posts.indexOf(post), 1);
    const ofPlatform = this.byPlatform.get(platform)!;
    ofPlatform.splice(ofPlatform.indexOf(post), 1);
    this.byId.delete(keyOf(platform, id));
    if (typeof post.details.idempotencyKey === 'string') this.byIdempotencyKey.delete(keyOf(platform, post.account, post.details.idempotencyKey));
    return true;
  }

  reset(): void {
    this.posts.length = 0;
    this.byPlatform.clear();
    this.byId.clear();
    this.byIdempotencyKey.clear();
    this.requests.length = 0;
    this.media.clear();
    this.faults.length = 0;
    this.latencyMs = 0;
    this.oauth.reset();
    this.telegramChats.clear();
    this.metricsGrowthPerMinute = 0;
  }
}
