import { field } from './http.js';
import { count, credential, metaGraph, throwGoneWhenMissing } from './meta-graph.js';
import { ConnectorError, type Connector, type ContentPart, type MediaItem, type PostMetrics, type Published, type PublishRequest, type TargetAccount } from './types.js';

/**
 * Facebook Pages (Graph API; permissions pages_manage_posts, pages_read_engagement, read_insights).
 *
 * Credentials besides `access_token` (which must be the Page access token): `page_id`.
 *
 * - Text: `POST /{page_id}/feed` (message). Images: each `POST /{page_id}/photos` (url from
 *   `MediaItem.url`, published=false), then the feed post with `attached_media=[{media_fbid}]`.
 *   A video: `POST /{page_id}/videos` (file_url, description); its id is the post id. Facebook pulls
 *   both from `MediaItem.url`. A post is one video or photos: a video with anything else, several videos
 *   or a document is refused, never partly posted.
 * - Pages have no threads: the first comment, then the parts after the first, become comments
 *   (`POST /{post_id}/comments`). Permalink: `GET /{id}?fields=permalink_url`.
 * - Metrics: insights `post_total_media_view_unique` (views; post_impressions* are deprecated) and
 *   `post_clicks`; likes, replies and reposts are the post's reaction, comment and share counts. A count
 *   Facebook leaves out of its answer is null.
 */

/** A count from Graph's answer; null when Facebook did not report it. */
const reported = (value: unknown): number | null => (value === undefined || value === null ? null : count(value));

/** The post's media as Facebook takes it: one video, or photos. */
function mediaOf(part: ContentPart): { video?: MediaItem; images: MediaItem[] } {
  const videos = part.media.filter((m) => m.type === 'video');
  const images = part.media.filter((m) => m.type === 'image');
  const other = part.media.find((m) => m.type !== 'video' && m.type !== 'image');
  if (other) throw new ConnectorError('rejected', `facebook: a post cannot carry a ${other.type} (${other.r2Key})`);
  if (videos.length > 1 || (videos.length && images.length)) throw new ConnectorError('rejected', 'facebook: a post is one video or photos, not both and not several videos');
  return videos[0] ? { video: videos[0], images } : { images };
}
export function facebookConnector(baseUrl = 'https://graph.facebook.com/v20.0'): Connector {
  const graph = metaGraph(baseUrl);
  const page = (t: TargetAccount) => credential(t, 'page_id');
  const post = async (target: TargetAccount, path: string, params: Record<string, string | undefined>) => field<string>(await graph.call(target, path, { method: 'POST', params }), 'id');

  async function create(target: TargetAccount, part: ContentPart): Promise<string> {
    const { video, images } = mediaOf(part);
    if (video) return post(target, `${page(target)}/videos`, { file_url: video.url, description: part.body });
    const photos: string[] = [];
    for (const image of images) photos.push(await post(target, `${page(target)}/photos`, { url: image.url, published: 'false' }));
    const attached = photos.length ? JSON.stringify(photos.map((id) => ({ media_fbid: id }))) : undefined;
    return post(target, `${page(target)}/feed`, { message: part.body, attached_media: attached });
  }

  return {
    platform: 'facebook',

    async publish({ target, parts }: PublishRequest): Promise<Published> {
      const [first, ...rest] = parts;
      if (!first) throw new Error('nothing to publish');
      const id = await create(target, first);
      if (first.firstComment) await post(target, `${id}/comments`, { message: first.firstComment });
      for (const part of rest) await post(target, `${id}/comments`, { message: part.body });
      return { platformPostId: id, permalink: await graph.permalink(target, id, 'permalink_url', `https://www.facebook.com/${id}`) };
    },

    findPublished({ target, parts }: PublishRequest, since: Date): Promise<Published | null> {
      return graph.findRecent(target, `${page(target)}/posts`, { text: 'message', time: 'created_time', permalink: 'permalink_url' }, parts[0]?.body, since);
    },

    async delete(target: TargetAccount, platformPostId: string): Promise<void> {
      await graph.call(target, platformPostId, { method: 'DELETE' });
    },

    async fetchMetrics(target: TargetAccount, platformPostId: string): Promise<PostMetrics> {
      // A post that no longer exists answers code 100 subcode 33: gone.
      const insights = await graph.insights(target, platformPostId, ['post_total_media_view_unique', 'post_clicks']).catch(throwGoneWhenMissing);
      const counts = (await graph
        .call(target, platformPostId, {
          params: { fields: 'reactions.summary(total_count).limit(0),comments.summary(total_count).limit(0),shares' },
        })
        .catch(throwGoneWhenMissing)) as { reactions?: { summary?: { total_count?: number } }; comments?: { summary?: { total_count?: number } }; shares?: { count?: number } };
      return {
        impressions: reported(insights.post_total_media_view_unique),
        likes: reported(counts.reactions?.summary?.total_count),
        replies: reported(counts.comments?.summary?.total_count),
        // Graph leaves `shares` out of a post nobody shared.
        reposts: counts.shares ? reported(counts.shares.count) : 0,
        clicks: reported(insights.post_clicks),
      };
    },

    async preflight({ parts }: PublishRequest): Promise<void> {
      if (parts[0]) mediaOf(parts[0]);
    },

    async validateCredentials(target: TargetAccount): Promise<boolean> {
      await graph.call(target, page(target), { params: { fields: 'id,name' } });
      return true;
    },
  };
}
