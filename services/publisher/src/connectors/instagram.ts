import { count, credential, metaGraph, throwGoneWhenMissing, type ContainerPolling } from './meta-graph.js';
import { ConnectorError, type Connector, type ContentPart, type MediaItem, type PostMetrics, type Published, type PublishRequest, type TargetAccount } from './types.js';

/**
 * Instagram Graph API (Instagram API with Facebook Login, graph.facebook.com; a Business or Creator
 * account linked to a Page).
 *
 * Credentials besides `access_token` (the Page/user token with instagram_content_publish):
 * `ig_user_id`, the Instagram professional account id.
 *
 * - Instagram pulls the media from `MediaItem.url` (a public URL): one image → `image_url`, one video
 *   → a Reel (`media_type=REELS`, `video_url`), 2–10 → a carousel (children with `is_carousel_item=true`,
 *   then `media_type=CAROUSEL&children=…`); more than 10, or a document, is refused. Each container is polled
 *   until `status_code` is FINISHED (ERROR or EXPIRED → rejected with Instagram's status), then
 *   `POST /{ig_user_id}/media_publish?creation_id=…`. Instagram takes JPEG images only: the media pipeline
 *   converts other images before they reach here.
 * - A post needs media; the text is the caption. Instagram has no threads: the first comment, then the
 *   parts after the first, become comments (`POST /{media_id}/comments`).
 * - Metrics: `/{media_id}/insights?metric=views,likes,comments,shares`; clicks are not reported (null).
 * - Polling: `polling.intervalMs` (default 2 s) × `polling.attempts` (default 15) per container.
 */
export function instagramConnector(baseUrl = 'https://graph.facebook.com/v20.0', polling?: ContainerPolling): Connector {
  const graph = metaGraph(baseUrl, 'status_code', polling);
  const user = (t: TargetAccount) => credential(t, 'ig_user_id');
  const fallbackLink = (t: TargetAccount) => `https://www.instagram.com/${t.username}/`;

  const source = (item: MediaItem, inCarousel: boolean) => (item.type === 'video' ? { media_type: inCarousel ? 'VIDEO' : 'REELS', video_url: item.url } : { image_url: item.url });

  async function creation(target: TargetAccount, media: MediaItem[], caption: string): Promise<string> {
    const path = `${user(target)}/media`;
    if (media.length === 1) return graph.container(target, path, { ...source(media[0]!, false), caption });
    const children: string[] = [];
    for (const item of media) children.push(await graph.container(target, path, { ...source(item, true), is_carousel_item: 'true' }));
    return graph.container(target, path, { media_type: 'CAROUSEL', children: children.join(','), caption });
  }

  /** The post's media, all of which Instagram can take: 1 image or video, or a carousel of 2 to 10. */
  function mediaOf(part: ContentPart): MediaItem[] {
    const other = part.media.find((m) => m.type !== 'image' && m.type !== 'video');
    if (other) throw new ConnectorError('rejected', `instagram: a post cannot carry a ${other.type} (${other.r2Key})`);
    if (!part.media.length) throw new ConnectorError('rejected', 'instagram: a post needs an image or a video');
    if (part.media.length > 10) throw new ConnectorError('rejected', `instagram: a carousel takes 2 to 10 items, this post has ${part.media.length}`);
    return part.media;
  }

  async function comment(target: TargetAccount, mediaId: string, message: string): Promise<void> {
    await graph.call(target, `${mediaId}/comments`, { method: 'POST', params: { message } });
  }

  return {
    platform: 'instagram',

    async publish({ target, parts }: PublishRequest): Promise<Published> {
      const [first, ...rest] = parts;
      if (!first) throw new Error('nothing to publish');
      const media = mediaOf(first);
      const id = await graph.publish(target, `${user(target)}/media_publish`, await creation(target, media, first.body));
      if (first.firstComment) await comment(target, id, first.firstComment);
      for (const part of rest) await comment(target, id, part.body);
      return { platformPostId: id, permalink: await graph.permalink(target, id, 'permalink', fallbackLink(target)) };
    },

    findPublished({ target, parts }: PublishRequest, since: Date): Promise<Published | null> {
      return graph.findRecent(target, `${user(target)}/media`, { text: 'caption', time: 'timestamp', permalink: 'permalink' }, parts[0]?.body, since);
    },

    async delete(target: TargetAccount, platformPostId: string): Promise<void> {
      await graph.call(target, platformPostId, { method: 'DELETE' });
    },

    async fetchMetrics(target: TargetAccount, platformPostId: string): Promise<PostMetrics> {
      // A media object that no longer exists answers code 100 subcode 33: gone.
      const m = await graph.insights(target, platformPostId, ['views', 'likes', 'comments', 'shares']).catch(throwGoneWhenMissing);
      return { impressions: count(m.views), likes: count(m.likes), replies: count(m.comments), reposts: count(m.shares), clicks: null };
    },

    async preflight({ parts }: PublishRequest): Promise<void> {
      if (parts[0]) mediaOf(parts[0]);
    },

    async validateCredentials(target: TargetAccount): Promise<boolean> {
      await graph.call(target, user(target), { params: { fields: 'id,username' } });
      return true;
    },
  };
}
