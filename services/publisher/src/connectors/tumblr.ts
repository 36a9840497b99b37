import { callPlatform, field } from './http.js';
import { ConnectorError, type Connector, type ContentPart, type PostMetrics, type Published, type PublishRequest, type TargetAccount } from './types.js';

/**
 * Tumblr (API v2, OAuth 2 bearer token with the `write offline_access` scopes). Answers are
 * `{meta:{status, msg}, response, errors?}`.
 *
 * Credentials besides `access_token`: `blog`, the blog identifier (its name such as `acme`, or its
 * hostname such as `acme.tumblr.com`); each blog is a separate account.
 *
 * A post is one NPF post (`POST /v2/blog/{blog}/posts` with `content` blocks). Text only: JSON. With
 * media: multipart/form-data, the NPF JSON in the `json` part and every image and the video uploaded as
 * file parts named by the `identifier` of their `image` / `video` block (at most 30 images and one
 * uploaded video per post, as Tumblr allows; more is refused, never dropped). Tumblr has no threads, so later parts become more blocks of
 * the same post; it has no comments either (only reblogs), so a first comment is refused. Metrics:
 * the post's `note_count` (likes, reblogs and replies together; reported as likes).
 */
/** Tumblr's NPF post content limits (https://github.com/tumblr/docs/blob/master/npf-spec.md#post-content-limits). */
const TUMBLR_LIMITS = { textBlock: 4096, images: 30, videos: 1 } as const;

/** A body as text blocks of at most 4096 code points, split at the last line break or space before the limit. */
function textChunks(body: string): string[] {
  const chunks: string[] = [];
  let rest = [...body];
  while (rest.length > TUMBLR_LIMITS.textBlock) {
    const head = rest.slice(0, TUMBLR_LIMITS.textBlock);
    const cut = Math.max(head.lastIndexOf('\n'), head.lastIndexOf(' '));
    const at = cut > 0 ? cut : TUMBLR_LIMITS.textBlock;
    chunks.push(rest.slice(0, at).join(''));
    rest = rest.slice(cut > 0 ? at + 1 : at);
  }
  if (rest.length) chunks.push(rest.join(''));
  return chunks;
}

/** What one Tumblr post can carry (all parts become one post): refused here, in publish and in preflight alike, never dropped. */
function checkShape(parts: ContentPart[]): void {
  if (parts.some((p) => p.poll)) throw new ConnectorError('rejected', 'polls are not supported by the Tumblr connector');
  if (parts.some((p) => p.firstComment)) throw new ConnectorError('rejected', 'Tumblr posts cannot have comments (only reblogs)');
  const all = parts.flatMap((p) => p.media);
  if (all.some((m) => m.type === 'document')) throw new ConnectorError('rejected', 'Tumblr posts take images and video, not documents');
  const videos = all.filter((m) => m.type === 'video').length;
  const images = all.filter((m) => m.type === 'image').length;
  if (videos > TUMBLR_LIMITS.videos) throw new ConnectorError('rejected', `Tumblr takes ${TUMBLR_LIMITS.videos} uploaded video per post (${videos} given)`);
  if (images > TUMBLR_LIMITS.images) throw new ConnectorError('rejected', `Tumblr takes at most ${TUMBLR_LIMITS.images} images per post (${images} given)`);
}

export function tumblrConnector(baseUrl = 'https://api.tumblr.com'): Connector {
  const auth = (t: TargetAccount) => ({ authorization: `Bearer ${t.credentials.access_token}` });
  const blogOf = (t: TargetAccount): string => {
    const blog = t.credentials.blog;
    if (!blog) throw new ConnectorError('auth', 'the Tumblr account has no blog: reconnect it');
    return blog;
  };
  const blogUrl = (t: TargetAccount) => `${baseUrl}/v2/blog/${encodeURIComponent(blogOf(t))}`;
  const permalink = (t: TargetAccount, id: string) => {
    const blog = blogOf(t);
    return `https://${blog.includes('.') ? blog : `${blog}.tumblr.com`}/post/${id}`;
  };

  /**
   * The NPF content of the post and its files: text blocks (a part's body, split where it passes the
   * 4096-character text block limit), one `image` block per image and one `video` block for the video,
   * each naming its multipart file part by `identifier`.
   */
  async function content(parts: ContentPart[]): Promise<{ blocks: unknown[]; files: Array<{ name: string; bytes: Buffer; contentType: string }> }> {
    const blocks: unknown[] = [];
    const files: Array<{ name: string; bytes: Buffer; contentType: string }> = [];
    checkShape(parts);
    for (const part of parts) {
      for (const text of textChunks(part.body)) blocks.push({ type: 'text', text });
      for (const item of part.media) {
        const { bytes, contentType } = await item.read();
        const name = `${item.type}-${files.length}`;
        const type = item.facts?.content_type ?? contentType;
        files.push({ name, bytes, contentType: type });
        blocks.push(item.type === 'image' ? { type: 'image', media: [{ type, identifier: name }] } : { type: 'video', media: { type, identifier: name } });
      }
    }
    return { blocks, files };
  }

  interface TumblrPost {
    id_string: string;
    timestamp: number;
    note_count?: number;
    content?: Array<{ type: string; text?: string }>;
  }
  const firstText = (post: TumblrPost) => post.content?.find((b) => b.type === 'text')?.text ?? '';

  return {
    platform: 'tumblr',

    async publish({ target, parts }: PublishRequest): Promise<Published> {
      if (!parts.length) throw new Error('nothing to publish');
      const { blocks, files } = await content(parts);
      const npf = { content: blocks, state: 'published' };
      let body: unknown = npf;
      if (files.length) {
        const form = new FormData();
        form.append('json', JSON.stringify(npf));
        for (const f of files) form.append(f.name, new Blob([new Uint8Array(f.bytes)], { type: f.contentType }), f.name);
        body = form;
      }
      const answer = await callPlatform(`${blogUrl(target)}/posts`, { method: 'POST', headers: auth(target), body, timeoutMs: files.length ? 300_000 : undefined });
      // `id` is a number beyond 2^53: only `id_string` is exact.
      const id = field<string>(answer.body, 'response.id_string');
      return { platformPostId: id, permalink: permalink(target, id) };
    },

    async findPublished({ target, parts }: PublishRequest, since: Date): Promise<Published | null> {
      const answer = await callPlatform(`${blogUrl(target)}/posts?npf=true&limit=20`, { headers: auth(target) });
      const posts = field<TumblrPost[]>(answer.body, 'response.posts');
      const sinceSeconds = Math.floor(since.getTime() / 1000);
      const found = posts.find((p) => p.timestamp >= sinceSeconds && firstText(p) === (textChunks(parts[0]?.body ?? '')[0] ?? ''));
      return found ? { platformPostId: found.id_string, permalink: permalink(target, found.id_string) } : null;
    },

    async delete(target: TargetAccount, platformPostId: string): Promise<void> {
      await callPlatform(`${blogUrl(target)}/post/delete`, { method: 'POST', headers: auth(target), body: new URLSearchParams({ id: platformPostId }) });
    },

    async fetchMetrics(target: TargetAccount, platformPostId: string): Promise<PostMetrics> {
      const answer = await callPlatform(`${blogUrl(target)}/posts?npf=true&id=${encodeURIComponent(platformPostId)}`, { headers: auth(target) });
      const [post] = field<TumblrPost[]>(answer.body, 'response.posts');
      // Tumblr reports one note count (likes, reblogs and replies together), reported as likes; nothing else.
      return { impressions: null, likes: post?.note_count ?? null, replies: null, reposts: null, clicks: null };
    },

    async preflight({ parts }: PublishRequest): Promise<void> {
      checkShape(parts);
    },

    async validateCredentials(target: TargetAccount): Promise<boolean> {
      const answer = await callPlatform(`${baseUrl}/v2/user/info`, { headers: auth(target) });
      field<string>(answer.body, 'response.user.name');
      return true;
    },
  };
}
