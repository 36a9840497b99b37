import { callPlatform, field } from './http.js';
import { ConnectorError, type Connector, type ContentPart, type PostMetrics, type Published, type PublishRequest, type TargetAccount } from './types.js';

/**
 * Tumblr (API v2, OAuth 2 bearer token with the `write offline_access` scopes). Answers are
 * `{meta:{status, msg}, response, errors?}`.
 *
 * Credentials besides `access_token`: `blog`, the blog identifier (its name such as `acme`, or its
 * hostname such as `acme.tumblr.com`); each blog is a separate account.
 *
 * A post is one NPF post (`POST /v2/blog/{blog}/posts` with `content` blocks: `text`, and `image` with
 * `media:[{url}]` for Tumblr to fetch). Tumblr has no threads, so later parts become more blocks of
 * the same post; it has no comments either (only reblogs), so a first comment is refused. Metrics:
 * the post's `note_count` (likes, reblogs and replies together; reported as likes).
 */
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

  function blocks(part: ContentPart): unknown[] {
    if (part.poll) throw new ConnectorError('rejected', 'polls are not supported by the Tumblr connector');
    const media = part.media.map((m) => {
      if (m.type !== 'image') throw new ConnectorError('rejected', `${m.type} media are not supported by the Tumblr connector (images only)`);
      return { type: 'image', media: [{ url: m.url }] };
    });
    return [...(part.body ? [{ type: 'text', text: part.body }] : []), ...media];
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
      if (parts.some((p) => p.firstComment)) throw new ConnectorError('rejected', 'Tumblr posts cannot have comments (only reblogs)');
      const answer = await callPlatform(`${blogUrl(target)}/posts`, {
        method: 'POST',
        headers: auth(target),
        body: { content: parts.flatMap(blocks), state: 'published' },
      });
      // `id` is a number beyond 2^53: only `id_string` is exact.
      const id = field<string>(answer.body, 'response.id_string');
      return { platformPostId: id, permalink: permalink(target, id) };
    },

    async findPublished({ target, parts }: PublishRequest, since: Date): Promise<Published | null> {
      const answer = await callPlatform(`${blogUrl(target)}/posts?npf=true&limit=20`, { headers: auth(target) });
      const posts = field<TumblrPost[]>(answer.body, 'response.posts');
      const sinceSeconds = Math.floor(since.getTime() / 1000);
      const found = posts.find((p) => p.timestamp >= sinceSeconds && firstText(p) === (parts[0]?.body ?? ''));
      return found ? { platformPostId: found.id_string, permalink: permalink(target, found.id_string) } : null;
    },

    async delete(target: TargetAccount, platformPostId: string): Promise<void> {
      await callPlatform(`${blogUrl(target)}/post/delete`, { method: 'POST', headers: auth(target), body: new URLSearchParams({ id: platformPostId }) });
    },

    async fetchMetrics(target: TargetAccount, platformPostId: string): Promise<PostMetrics> {
      const answer = await callPlatform(`${blogUrl(target)}/posts?npf=true&id=${encodeURIComponent(platformPostId)}`, { headers: auth(target) });
      const [post] = field<TumblrPost[]>(answer.body, 'response.posts');
      return { impressions: 0, likes: post?.note_count ?? 0, replies: 0, reposts: 0, clicks: 0 };
    },

    async validateCredentials(target: TargetAccount): Promise<boolean> {
      const answer = await callPlatform(`${baseUrl}/v2/user/info`, { headers: auth(target) });
      field<string>(answer.body, 'response.user.name');
      return true;
    },
  };
}
