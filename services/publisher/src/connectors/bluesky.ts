import { blueskyEmbed, checkShape, type BlueskyMediaOptions } from './bluesky-media.js';
import { findInPages } from './recent-posts.js';
import { callPlatform, field, type CallOptions, type HttpAnswer } from './http.js';
import { ConnectorError, postGone, type Connector, type ContentPart, type PostMetrics, type Published, type PublishRequest, type TargetAccount } from './types.js';

/**
 * Bluesky (AT Protocol XRPC on the account's PDS). `access_token` is the session's `accessJwt`, taken as given
 * (creating or refreshing the session from an app password is out of scope). Credentials besides it: `did`
 * (the repo posts are written to) and `handle` (for permalinks; `TargetAccount.username` when absent); optional
 * `pds_url` (the account's PDS; the connector's base URL when absent).
 * A post is an `app.bsky.feed.post` record: links become facets with UTF-8 byte offsets, images are uploaded
 * with `uploadBlob` and embedded as `app.bsky.embed.images`, a video goes through the video service into
 * `app.bsky.embed.video` (see bluesky-media.ts), thread parts and the first comment are replies `{root, parent}`.
 * The platform post id is the record's `at://` URI. Metrics come from `app.bsky.feed.getPosts`; Bluesky reports
 * no impressions or clicks (null), and a post it no longer has is gone (404).
 */
const POST = 'app.bsky.feed.post';

interface StrongRef {
  uri: string;
  cid: string;
}

/** Link facets for the http(s) URLs in `text`, as UTF-8 byte ranges (trailing punctuation is not part of a link). */
export function linkFacets(text: string): Array<{ index: { byteStart: number; byteEnd: number }; features: Array<{ $type: string; uri: string }> }> {
  const facets = [];
  for (const match of text.matchAll(/https?:\/\/[^\s<>"]+/g)) {
    let uri = match[0].replace(/[.,;:!?'"]+$/, '');
    if (uri.endsWith(')') && !uri.includes('(')) uri = uri.slice(0, -1);
    const byteStart = Buffer.byteLength(text.slice(0, match.index));
    facets.push({ index: { byteStart, byteEnd: byteStart + Buffer.byteLength(uri) }, features: [{ $type: 'app.bsky.richtext.facet#link', uri }] });
  }
  return facets;
}

const DEFAULT_PDS = 'https://bsky.social';

export function blueskyConnector(baseUrl = DEFAULT_PDS, options: BlueskyMediaOptions = {}): Connector {
  const media: BlueskyMediaOptions = { ...options, videoServiceUrl: options.videoServiceUrl ?? (baseUrl === DEFAULT_PDS ? 'https://video.bsky.app' : baseUrl) };
  const pds = (t: TargetAccount) => (t.credentials.pds_url ?? baseUrl).replace(/\/+$/, '');
  const repo = (t: TargetAccount) => {
    if (!t.credentials.did) throw new ConnectorError('rejected', 'bluesky: the account has no did');
    return t.credentials.did;
  };
  const rkeyOf = (uri: string) => uri.split('/').pop() ?? '';
  const permalink = (t: TargetAccount, uri: string) => `https://bsky.app/profile/${t.credentials.handle ?? t.username}/post/${rkeyOf(uri)}`;

  /** An XRPC call. The PDS answers a bad or expired access JWT with 400 `ExpiredToken`/`InvalidToken`: that is `auth`. */
  async function xrpc(target: TargetAccount, method: string, options: CallOptions = {}): Promise<HttpAnswer> {
    try {
      return await callPlatform(`${pds(target)}/xrpc/${method}`, { ...options, headers: { authorization: `Bearer ${target.credentials.access_token}`, ...options.headers } });
    } catch (err) {
      if (err instanceof ConnectorError && err.kind === 'rejected' && /"error":"(ExpiredToken|InvalidToken)"/.test(err.message)) {
        throw new ConnectorError('auth', err.message, undefined, err.status);
      }
      throw err;
    }
  }

  const embed = (target: TargetAccount, part: ContentPart) => blueskyEmbed((method, o) => xrpc(target, method, o), pds(target), repo(target), part, media);

  async function createPost(target: TargetAccount, text: string, extra: { embed?: Record<string, unknown> | undefined; reply?: { root: StrongRef; parent: StrongRef } }): Promise<StrongRef> {
    const facets = linkFacets(text);
    const record = {
      $type: POST,
      text,
      createdAt: new Date().toISOString(),
      ...(facets.length ? { facets } : {}),
      ...(extra.embed ? { embed: extra.embed } : {}),
      ...(extra.reply ? { reply: extra.reply } : {}),
    };
    const answer = await xrpc(target, 'com.atproto.repo.createRecord', { method: 'POST', body: { repo: repo(target), collection: POST, record } });
    return { uri: field<string>(answer.body, 'uri'), cid: field<string>(answer.body, 'cid') };
  }

  return {
    platform: 'bluesky',

    async publish({ target, parts }: PublishRequest): Promise<Published> {
      let root: StrongRef | undefined;
      let parent: StrongRef | undefined;
      for (const part of parts) {
        const ref = await createPost(target, part.body, { embed: await embed(target, part), ...(root && parent ? { reply: { root, parent } } : {}) });
        root ??= ref;
        parent = ref;
      }
      if (!root) throw new Error('nothing to publish');
      const comment = parts[0]?.firstComment;
      if (comment) await createPost(target, comment, { reply: { root, parent: root } });
      return { platformPostId: root.uri, permalink: permalink(target, root.uri) };
    },

    async findPublished({ target, parts }: PublishRequest, since: Date): Promise<Published | null> {
      type Entry = { uri: string; value?: { text?: string; createdAt?: string; reply?: unknown } };
      const created = (r: Entry) => Date.parse(r.value?.createdAt ?? '');
      const found = await findInPages(
        async (cursor) => {
          const query = new URLSearchParams({ repo: repo(target), collection: POST, limit: '100', ...(cursor ? { cursor } : {}) });
          const body = (await xrpc(target, `com.atproto.repo.listRecords?${query}`)).body as { records?: Entry[]; cursor?: string };
          return { items: body.records ?? [], next: body.cursor };
        },
        (r) => !r.value?.reply && r.value?.text === parts[0]?.body && created(r) >= since.getTime(),
        (r) => created(r) < since.getTime(),
      );
      return found ? { platformPostId: found.uri, permalink: permalink(target, found.uri) } : null;
    },

    async delete(target: TargetAccount, platformPostId: string): Promise<void> {
      await xrpc(target, 'com.atproto.repo.deleteRecord', { method: 'POST', body: { repo: repo(target), collection: POST, rkey: rkeyOf(platformPostId) } });
    },

    async fetchMetrics(target: TargetAccount, platformPostId: string): Promise<PostMetrics> {
      const answer = await xrpc(target, `app.bsky.feed.getPosts?${new URLSearchParams({ uris: platformPostId })}`);
      const post = (answer.body as { posts?: Array<Record<string, number | undefined>> }).posts?.[0];
      // getPosts leaves out a post that no longer exists: gone, as a 404 is for the other platforms.
      if (!post) throw postGone(`bluesky: post ${platformPostId} no longer exists`);
      const count = (n: number | undefined) => (typeof n === 'number' ? n : null);
      const reposts = post.repostCount === undefined && post.quoteCount === undefined ? null : (post.repostCount ?? 0) + (post.quoteCount ?? 0);
      return { impressions: null, likes: count(post.likeCount), replies: count(post.replyCount), reposts, clicks: null };
    },

    async preflight({ parts }: PublishRequest): Promise<void> {
      for (const part of parts) checkShape(part);
    },

    async validateCredentials(target: TargetAccount): Promise<boolean> {
      await xrpc(target, 'com.atproto.server.getSession');
      return true;
    },
  };
}
