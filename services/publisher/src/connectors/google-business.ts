import { callPlatform, field } from './http.js';
import { ConnectorError, type Connector, type ContentPart, type PostMetrics, type Published, type PublishRequest, type TargetAccount } from './types.js';

/**
 * Google Business Profile (My Business API v4 local posts, Google OAuth 2.0 bearer, `business.manage`).
 * Credentials besides `access_token`: `account_id` and `location_id` (the numeric ids in
 * `accounts/{a}/locations/{l}`); optional `language_code` (default `en`).
 * A post is a STANDARD local post: `summary` + at most one PHOTO by `sourceUrl` (Google pulls it: JPEG or
 * PNG, 10 KB–5 MB, at least 250x250, https://developers.google.com/my-business/content/upload-photos); the
 * API takes no video in local posts, so a video is refused, never dropped.
 * The platform post id is the LocalPost resource name. An answer with `state: REJECTED` is a policy refusal.
 * Metrics come from `localPosts:reportInsights`: search views → impressions, call-to-action clicks → clicks.
 */
/** Google's smallest photo (https://developers.google.com/my-business/content/upload-photos). */
const MIN_PHOTO_BYTES = 10 * 1024;

interface LocalPost {
  name: string;
  summary?: string;
  state?: string;
  createTime?: string;
  searchUrl?: string;
}

export function googleBusinessConnector(baseUrl = 'https://mybusiness.googleapis.com'): Connector {
  const auth = (t: TargetAccount) => ({ authorization: `Bearer ${t.credentials.access_token}` });

  function location(t: TargetAccount): string {
    const { account_id: account, location_id: loc } = t.credentials;
    if (!account || !loc) throw new ConnectorError('rejected', 'google_business: the account needs account_id and location_id');
    return `${baseUrl}/v4/accounts/${encodeURIComponent(account)}/locations/${encodeURIComponent(loc)}`;
  }

  function photo(part: ContentPart): Array<{ mediaFormat: 'PHOTO'; sourceUrl: string }> {
    if (part.media.length > 1 || part.media.some((m) => m.type !== 'image')) {
      throw new ConnectorError('rejected', 'google_business: a local post takes at most one photo and no video');
    }
    return part.media.map((m) => ({ mediaFormat: 'PHOTO', sourceUrl: m.url }));
  }

  /** One local post: one part, no comment (Google has no comments on local posts); never part of it dropped. */
  function checkShape(parts: ContentPart[]): void {
    if (parts.length > 1) throw new ConnectorError('rejected', 'google_business: a local post is one part (no threads)');
    if (parts[0]?.firstComment) throw new ConnectorError('rejected', 'google_business: local posts take no comments');
    if (parts[0]) photo(parts[0]);
  }

  const published = (t: TargetAccount, post: LocalPost): Published => ({
    platformPostId: post.name,
    permalink: post.searchUrl ?? `https://business.google.com/locations/${t.credentials.location_id}`,
  });

  return {
    platform: 'google_business',

    async publish({ target, parts }: PublishRequest): Promise<Published> {
      const part = parts[0];
      if (!part) throw new Error('nothing to publish');
      checkShape(parts);
      const media = photo(part);
      const answer = await callPlatform(`${location(target)}/localPosts`, {
        method: 'POST',
        headers: auth(target),
        body: { languageCode: target.credentials.language_code ?? 'en', summary: part.body, topicType: 'STANDARD', ...(media.length ? { media } : {}) },
      });
      const post = answer.body as LocalPost;
      field<string>(post, 'name');
      if (post.state === 'REJECTED') throw new ConnectorError('rejected', `google_business: the post was rejected (${post.name})`);
      return published(target, post);
    },

    async findPublished({ target, parts }: PublishRequest, since: Date): Promise<Published | null> {
      const answer = await callPlatform(`${location(target)}/localPosts?pageSize=100`, { headers: auth(target) });
      const posts = (answer.body as { localPosts?: LocalPost[] }).localPosts ?? [];
      const found = posts.find((p) => p.summary === parts[0]?.body && p.state !== 'REJECTED' && Date.parse(p.createTime ?? '') >= since.getTime());
      return found ? published(target, found) : null;
    },

    async delete(target: TargetAccount, platformPostId: string): Promise<void> {
      await callPlatform(`${baseUrl}/v4/${platformPostId.split('/').map(encodeURIComponent).join('/')}`, { method: 'DELETE', headers: auth(target) });
    },

    async fetchMetrics(target: TargetAccount, platformPostId: string): Promise<PostMetrics> {
      const endTime = new Date();
      const startTime = new Date(endTime.getTime() - 540 * 86_400_000);
      const answer = await callPlatform(`${location(target)}/localPosts:reportInsights`, {
        method: 'POST',
        headers: auth(target),
        body: {
          localPostNames: [platformPostId],
          basicRequest: {
            metricRequests: [{ metric: 'LOCAL_POST_VIEWS_SEARCH' }, { metric: 'LOCAL_POST_ACTIONS_CALL_TO_ACTION' }],
            timeRange: { startTime: startTime.toISOString(), endTime: endTime.toISOString() },
          },
        },
      });
      const entries = (answer.body as { localPostMetrics?: Array<{ localPostName: string; metricValues?: Array<{ metric: string; totalValue?: { value?: string } }> }> }).localPostMetrics ?? [];
      const values = entries.find((e) => e.localPostName === platformPostId)?.metricValues ?? [];
      const metric = (name: string) => {
        const value = values.find((v) => v.metric === name)?.totalValue?.value;
        return value === undefined ? null : Number(value);
      };
      // Local posts report search views and call-to-action clicks only.
      return { impressions: metric('LOCAL_POST_VIEWS_SEARCH'), likes: null, replies: null, reposts: null, clicks: metric('LOCAL_POST_ACTIONS_CALL_TO_ACTION') };
    },

    /** The shape, and Google's 10 KB photo floor (the capability table has no byte minimum). */
    async preflight({ parts }: PublishRequest): Promise<void> {
      checkShape(parts);
      for (const item of parts[0]?.media ?? []) {
        const bytes = item.facts?.bytes ?? (await item.read()).bytes.length;
        if (bytes < MIN_PHOTO_BYTES) throw new ConnectorError('rejected', `google_business: the photo is ${bytes} bytes; Google takes photos of at least 10 KB`);
      }
    },

    async validateCredentials(target: TargetAccount): Promise<boolean> {
      await callPlatform(`${location(target)}/localPosts?pageSize=1`, { headers: auth(target) });
      return true;
    },
  };
}
