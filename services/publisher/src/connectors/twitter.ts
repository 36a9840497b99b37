import { callPlatform, field } from './http.js';
import { findInPages } from './recent-posts.js';
import type { Connector, ContentPart, PostMetrics, Published, PublishRequest, TargetAccount } from './types.js';

/**
 * X (API v2, OAuth 2.0 user-context bearer token): a thread is a chain of replies
 * (`reply.in_reply_to_tweet_id`), a first comment is one more reply, images go through
 * `POST /2/media/upload` first, polls are `poll.options` + `poll.duration_minutes`.
 */
export function twitterConnector(baseUrl = 'https://api.x.com'): Connector {
  const auth = (t: TargetAccount) => ({ authorization: `Bearer ${t.credentials.access_token}` });

  async function uploadImages(target: TargetAccount, part: ContentPart): Promise<string[]> {
    const ids: string[] = [];
    for (const item of part.media.filter((m) => m.type === 'image')) {
      const { bytes } = await item.read();
      const answer = await callPlatform(`${baseUrl}/2/media/upload`, {
        method: 'POST',
        headers: auth(target),
        body: { media: bytes.toString('base64'), media_category: 'tweet_image' },
      });
      ids.push(field<string>(answer.body, 'data.id'));
    }
    return ids;
  }

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
        const mediaIds = await uploadImages(target, part);
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
      const m = field<Record<string, number>>(answer.body, 'data.public_metrics');
      const clicks = (answer.body as { data?: { non_public_metrics?: { url_link_clicks?: number } } }).data?.non_public_metrics?.url_link_clicks ?? 0;
      return { impressions: m.impression_count ?? 0, likes: m.like_count ?? 0, replies: m.reply_count ?? 0, reposts: (m.retweet_count ?? 0) + (m.quote_count ?? 0), clicks };
    },

    async validateCredentials(target: TargetAccount): Promise<boolean> {
      await me(target);
      return true;
    },
  };
}
