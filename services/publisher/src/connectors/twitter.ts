import { callPlatform, field } from './http.js';
import { findInPages } from './recent-posts.js';
import { checkXShape, uploadXMedia, type XMediaOptions } from './twitter-media.js';
import { ConnectorError, postGone, type Connector, type PostMetrics, type Published, type PublishRequest, type TargetAccount } from './types.js';

const count = (value: number | undefined): number | null => (typeof value === 'number' ? value : null);

/**
 * X (API v2, OAuth 2.0 user-context bearer token): a thread is a chain of replies
 * (`reply.in_reply_to_tweet_id`), a first comment is one more reply, every media item of a part is uploaded
 * first (images in one request, videos and GIFs chunked and processed: see twitter-media.ts), polls are
 * `poll.options` + `poll.duration_minutes`.
 */
export function twitterConnector(baseUrl = 'https://api.x.com', options: XMediaOptions = {}): Connector {
  const auth = (t: TargetAccount) => ({ authorization: `Bearer ${t.credentials.access_token}` });

  async function tweet(target: TargetAccount, text: string, extra: Record<string, unknown>): Promise<string> {
    const answer = await callPlatform(`${baseUrl}/2/tweets`, { method: 'POST', headers: auth(target), body: { text, ...extra } });
    return field<string>(answer.body, 'data.id');
  }

  const permalink = (target: TargetAccount, id: string) => `https://x.com/${target.username}/status/${id}`;

  async function me(target: TargetAccount): Promise<string> {
    const answer = await callPlatform(`${baseUrl}/2/users/me`, { headers: auth(target) });
    return field<string>(answer.body, 'data.id');
  }

  return {
    platform: 'twitter',

    async publish({ target, parts }: PublishRequest): Promise<Published> {
      let firstId: string | undefined;
      let previous: string | undefined;
      for (const part of parts) {
        if (part.poll && part.media.length) throw new ConnectorError('rejected', 'X does not take a poll and media in one post');
        const mediaIds = part.media.length ? await uploadXMedia(baseUrl, auth(target), part.media, options) : [];
        const id = await tweet(target, part.body, {
          ...(previous ? { reply: { in_reply_to_tweet_id: previous } } : {}),
          ...(mediaIds.length ? { media: { media_ids: mediaIds } } : {}),
          ...(part.poll ? { poll: { options: part.poll.options, duration_minutes: part.poll.durationMinutes } } : {}),
        });
        firstId ??= id;
        previous = id;
      }
      const comment = parts[0]?.firstComment;
      if (comment && firstId) await tweet(target, comment, { reply: { in_reply_to_tweet_id: firstId } });
      if (!firstId) throw new Error('nothing to publish');
      return { platformPostId: firstId, permalink: permalink(target, firstId) };
    },

    async findPublished({ target, parts }: PublishRequest, since: Date): Promise<Published | null> {
      const userId = await me(target);
      const found = await findInPages(
        async (token) => {
          const query = new URLSearchParams({ max_results: '100', start_time: since.toISOString(), ...(token ? { pagination_token: token } : {}) });
          const answer = await callPlatform(`${baseUrl}/2/users/${encodeURIComponent(userId)}/tweets?${query}`, { headers: auth(target) });
          const body = answer.body as { data?: Array<{ id: string; text: string }>; meta?: { next_token?: string } };
          return { items: body.data ?? [], next: body.meta?.next_token };
        },
        (t) => t.text === parts[0]?.body,
        () => false, // start_time already bounds the window
      );
      return found ? { platformPostId: found.id, permalink: permalink(target, found.id) } : null;
    },

    async delete(target: TargetAccount, platformPostId: string): Promise<void> {
      await callPlatform(`${baseUrl}/2/tweets/${encodeURIComponent(platformPostId)}`, { method: 'DELETE', headers: auth(target) });
    },

    async fetchMetrics(target: TargetAccount, platformPostId: string): Promise<PostMetrics> {
      const answer = await callPlatform(`${baseUrl}/2/tweets/${encodeURIComponent(platformPostId)}?tweet.fields=public_metrics,non_public_metrics`, { headers: auth(target) });
      const body = answer.body as { data?: unknown; errors?: Array<{ type?: string; detail?: string }> };
      // X answers a post that no longer exists with 200 and a resource-not-found error instead of data.
      const missing = body.errors?.find((e) => e.type?.endsWith('/resource-not-found'));
      if (!body.data && missing) throw postGone(`X no longer has post ${platformPostId}: ${missing.detail ?? 'not found'}`);
      const m = field<Record<string, number | undefined>>(answer.body, 'data.public_metrics');
      const clicks = (answer.body as { data?: { non_public_metrics?: { url_link_clicks?: number } } }).data?.non_public_metrics?.url_link_clicks;
      const reposts = m.retweet_count === undefined && m.quote_count === undefined ? null : (m.retweet_count ?? 0) + (m.quote_count ?? 0);
      return { impressions: count(m.impression_count), likes: count(m.like_count), replies: count(m.reply_count), reposts, clicks: count(clicks) };
    },

    async preflight({ parts }: PublishRequest): Promise<void> {
      for (const part of parts) await checkXShape(part);
    },

    async validateCredentials(target: TargetAccount): Promise<boolean> {
      await me(target);
      return true;
    },
  };
}
