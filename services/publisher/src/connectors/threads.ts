import { credential, metaGraph, throwGoneWhenMissing, type ContainerPolling } from './meta-graph.js';
import { ConnectorError, type Connector, type ContentPart, type MediaItem, type PostMetrics, type Published, type PublishRequest, type TargetAccount } from './types.js';

/**
 * Threads API (graph.threads.net; scopes threads_basic, threads_content_publish, threads_manage_replies,
 * threads_manage_insights, threads_delete).
 *
 * Credentials besides `access_token`: `threads_user_id`, the Threads user id.
 *
 * - Every post is a container (`POST /{threads_user_id}/threads`: TEXT, IMAGE `image_url`, VIDEO
 *   `video_url`, or a CAROUSEL of ≤20 `is_carousel_item` children), polled until `status` is FINISHED,
 *   then `POST /{threads_user_id}/threads_publish?creation_id=…`. Media are pulled from `MediaItem.url`.
 * - A thread is a chain of replies (`reply_to_id` = the previous part); the first comment replies to the
 *   first post. A poll is a TEXT post with `poll_attachment` (option_a … option_d; Threads fixes its
 *   duration).
 * - A post with more than 20 media, or media other than images and videos, is refused (nothing is dropped).
 * - Metrics: `/{id}/insights?metric=views,likes,replies,reposts,quotes` (reposts + quotes = reposts); Threads
 *   reports no clicks (null); a post Threads no longer has is gone (404).
 */
const OPTION_KEYS = ['option_a', 'option_b', 'option_c', 'option_d'];
const MAX_CAROUSEL = 20;
const MAX_TEXT = 500;
const MAX_LINKS = 5;
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * What Threads refuses in a post's text: over 500 characters with each emoji counting its UTF-8 bytes
 * (https://developers.facebook.com/documentation/threads/posts), or more than 5 distinct links.
 */
export function threadsTextProblem(text: string): string | undefined {
  let length = 0;
  for (const { segment } of graphemes.segment(text)) length += /\p{Extended_Pictographic}|\p{Regional_Indicator}/u.test(segment) ? Buffer.byteLength(segment) : [...segment].length;
  if (length > MAX_TEXT) return `Threads takes at most ${MAX_TEXT} characters (emojis count their UTF-8 bytes); this text counts ${length}`;
  const links = new Set(text.match(/(?:https?:\/\/|www\.)[^\s<>"]+/gi) ?? []).size;
  if (links > MAX_LINKS) return `Threads takes at most ${MAX_LINKS} links per post; this text has ${links}`;
  return undefined;
}
const reported = (value: unknown): number | null => (typeof value === 'number' ? value : null);

export function threadsConnector(baseUrl = 'https://graph.threads.net/v1.0', polling?: ContainerPolling): Connector {
  const graph = metaGraph(baseUrl, 'status', polling);
  const user = (t: TargetAccount) => credential(t, 'threads_user_id');

  const source = (item: MediaItem): Record<string, string> => (item.type === 'video' ? { media_type: 'VIDEO', video_url: item.url } : { media_type: 'IMAGE', image_url: item.url });

  async function post(target: TargetAccount, part: Pick<ContentPart, 'body' | 'media' | 'poll'>, replyTo?: string): Promise<string> {
    const path = `${user(target)}/threads`;
    const media = part.media;
    const other = media.find((m) => m.type !== 'image' && m.type !== 'video');
    if (other) throw new ConnectorError('rejected', `Threads posts carry images and videos, not a ${other.type}`);
    if (media.length > MAX_CAROUSEL) throw new ConnectorError('rejected', `a Threads carousel has at most ${MAX_CAROUSEL} items; this post has ${media.length}`);
    let kind: Record<string, string>;
    if (media.length > 1) {
      const children: string[] = [];
      for (const item of media) children.push(await graph.container(target, path, { ...source(item), is_carousel_item: 'true' }));
      kind = { media_type: 'CAROUSEL', children: children.join(',') };
    } else if (media[0]) {
      kind = source(media[0]);
    } else {
      const poll = part.poll && JSON.stringify(Object.fromEntries(part.poll.options.slice(0, 4).map((o, i) => [OPTION_KEYS[i], o])));
      kind = { media_type: 'TEXT', ...(poll ? { poll_attachment: poll } : {}) };
    }
    const creation = await graph.container(target, path, { ...kind, text: part.body || undefined, reply_to_id: replyTo });
    return graph.publish(target, `${user(target)}/threads_publish`, creation);
  }

  return {
    platform: 'threads',

    async publish({ target, parts }: PublishRequest): Promise<Published> {
      const [first, ...rest] = parts;
      if (!first) throw new Error('nothing to publish');
      const root = await post(target, first);
      let previous = root;
      for (const part of rest) previous = await post(target, part, previous);
      if (first.firstComment) await post(target, { body: first.firstComment, media: [] }, root);
      return { platformPostId: root, permalink: await graph.permalink(target, root, 'permalink', `https://www.threads.net/@${target.username}`) };
    },

    findPublished({ target, parts }: PublishRequest, since: Date): Promise<Published | null> {
      return graph.findRecent(target, `${user(target)}/threads`, { text: 'text', time: 'timestamp', permalink: 'permalink' }, parts[0]?.body, since);
    },

    async delete(target: TargetAccount, platformPostId: string): Promise<void> {
      await graph.call(target, platformPostId, { method: 'DELETE' });
    },

    async fetchMetrics(target: TargetAccount, platformPostId: string): Promise<PostMetrics> {
      const m = await graph.insights(target, platformPostId, ['views', 'likes', 'replies', 'reposts', 'quotes']).catch(throwGoneWhenMissing);
      const reposts = reported(m.reposts) === null && reported(m.quotes) === null ? null : (reported(m.reposts) ?? 0) + (reported(m.quotes) ?? 0);
      return { impressions: reported(m.views), likes: reported(m.likes), replies: reported(m.replies), reposts, clicks: null };
    },

    async preflight({ parts }: PublishRequest): Promise<void> {
      for (const text of [...parts.map((p) => p.body), parts[0]?.firstComment ?? '']) {
        const problem = threadsTextProblem(text);
        if (problem) throw new ConnectorError('rejected', problem);
      }
      for (const part of parts) {
        const other = part.media.find((m) => m.type !== 'image' && m.type !== 'video');
        if (other) throw new ConnectorError('rejected', `Threads posts carry images and videos, not a ${other.type}`);
        if (part.media.length > MAX_CAROUSEL) throw new ConnectorError('rejected', `a Threads carousel has at most ${MAX_CAROUSEL} items; this post has ${part.media.length}`);
      }
    },

    async validateCredentials(target: TargetAccount): Promise<boolean> {
      await graph.call(target, user(target), { params: { fields: 'id,username' } });
      return true;
    },
  };
}
