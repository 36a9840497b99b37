import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { findInPages } from './recent-posts.js';
import { callPlatform, field } from './http.js';
import { checkAgainstInstance, checkMediaShape, type InstanceLimits } from './mastodon-limits.js';
import { ConnectorError, type Connector, type ContentPart, type PostMetrics, type Published, type PublishRequest, type TargetAccount } from './types.js';

/**
 * Mastodon (per-instance OAuth 2.0 bearer, `write:statuses write:media read:statuses read:accounts`).
 * Credentials besides `access_token`: `instance_url` (e.g. `https://mastodon.social`; the connector's base URL
 * is used when it is absent).
 * Media go through `POST /api/v2/media` (waiting on `GET /api/v1/media/{id}` while it answers 206), statuses are
 * form-encoded `POST /api/v1/statuses` (`media_ids[]`, `poll[options][]`, `poll[expires_in]`, `in_reply_to_id`
 * for thread parts and the first comment) with an `Idempotency-Key` derived from the account and the request,
 * so a retried create within Mastodon's one-hour key window answers the status already made. The dry run's
 * preflight reads the instance's limits (`GET /api/v2/instance` configuration) and checks every part against
 * them. Metrics: the Status counters; Mastodon reports no impressions or clicks (null); a deleted status is 404 (gone).
 */
export function mastodonConnector(baseUrl = 'https://mastodon.social', options: { mediaPollMs?: number; mediaPolls?: number } = {}): Connector {
  const instance = (t: TargetAccount) => (t.credentials.instance_url ?? baseUrl).replace(/\/+$/, '');
  const auth = (t: TargetAccount) => ({ authorization: `Bearer ${t.credentials.access_token}` });

  async function uploadMedia(target: TargetAccount, part: ContentPart): Promise<string[]> {
    checkMediaShape(part);
    const ids: string[] = [];
    for (const item of part.media) {
      const { bytes, contentType } = await item.read();
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(bytes)], { type: item.facts?.content_type ?? contentType }), item.r2Key.split('/').pop() ?? 'media');
      const answer = await callPlatform(`${instance(target)}/api/v2/media`, { method: 'POST', headers: auth(target), body: form, timeoutMs: 60_000 });
      const id = field<string>(answer.body, 'id');
      if (answer.status === 202) await untilProcessed(target, id);
      ids.push(id);
    }
    return ids;
  }

  async function untilProcessed(target: TargetAccount, id: string): Promise<void> {
    for (let poll = 0; poll < (options.mediaPolls ?? 60); poll++) {
      const answer = await callPlatform(`${instance(target)}/api/v1/media/${encodeURIComponent(id)}`, { headers: auth(target) });
      if (answer.status === 200) return;
      await sleep(options.mediaPollMs ?? 1000);
    }
    throw new ConnectorError('transient', `mastodon: media ${id} is still processing`);
  }

  /** Stable across retries: the account, the text, the media by storage key (not the per-upload ids), the poll and the reply target. */
  const idempotencyKey = (target: TargetAccount, text: string, media: string[], poll: ContentPart['poll'], inReplyTo: string | undefined) =>
    createHash('sha256')
      .update(JSON.stringify([instance(target), target.socialAccountId, text, media, poll ?? null, inReplyTo ?? null]))
      .digest('hex');

  async function postStatus(
    target: TargetAccount,
    text: string,
    extra: { media?: ContentPart['media']; mediaIds?: string[]; poll?: ContentPart['poll']; inReplyTo?: string },
  ): Promise<{ id: string; url: string }> {
    const form = new URLSearchParams({ status: text });
    for (const id of extra.mediaIds ?? []) form.append('media_ids[]', id);
    for (const option of extra.poll?.options ?? []) form.append('poll[options][]', option);
    if (extra.poll) form.set('poll[expires_in]', String(extra.poll.durationMinutes * 60));
    if (extra.inReplyTo) form.set('in_reply_to_id', extra.inReplyTo);
    const key = idempotencyKey(
      target,
      text,
      (extra.media ?? []).map((m) => m.r2Key),
      extra.poll,
      extra.inReplyTo,
    );
    const answer = await callPlatform(`${instance(target)}/api/v1/statuses`, { method: 'POST', headers: { ...auth(target), 'idempotency-key': key }, body: form });
    return { id: field<string>(answer.body, 'id'), url: field<string>(answer.body, 'url') };
  }

  async function me(target: TargetAccount): Promise<string> {
    const answer = await callPlatform(`${instance(target)}/api/v1/accounts/verify_credentials`, { headers: auth(target) });
    return field<string>(answer.body, 'id');
  }

  return {
    platform: 'mastodon',

    async publish({ target, parts }: PublishRequest): Promise<Published> {
      let first: { id: string; url: string } | undefined;
      let previous: string | undefined;
      for (const part of parts) {
        const mediaIds = await uploadMedia(target, part);
        const status = await postStatus(target, part.body, { media: part.media, mediaIds, poll: part.poll, ...(previous ? { inReplyTo: previous } : {}) });
        first ??= status;
        previous = status.id;
      }
      if (!first) throw new Error('nothing to publish');
      const comment = parts[0]?.firstComment;
      if (comment) await postStatus(target, comment, { inReplyTo: first.id });
      return { platformPostId: first.id, permalink: first.url };
    },

    async findPublished({ target, parts }: PublishRequest, since: Date): Promise<Published | null> {
      const id = await me(target);
      type Status = { id: string; url: string; content: string; created_at: string };
      const found = await findInPages(
        async (maxId) => {
          const query = new URLSearchParams({ limit: '40', exclude_replies: 'true', ...(maxId ? { max_id: maxId } : {}) });
          const statuses = ((await callPlatform(`${instance(target)}/api/v1/accounts/${encodeURIComponent(id)}/statuses?${query}`, { headers: auth(target) })).body as Status[]) ?? [];
          return { items: statuses, next: statuses.at(-1)?.id };
        },
        (s) => plainText(s.content) === parts[0]?.body.trim() && Date.parse(s.created_at) >= since.getTime(),
        (s) => Date.parse(s.created_at) < since.getTime(),
      );
      return found ? { platformPostId: found.id, permalink: found.url } : null;
    },

    async delete(target: TargetAccount, platformPostId: string): Promise<void> {
      await callPlatform(`${instance(target)}/api/v1/statuses/${encodeURIComponent(platformPostId)}`, { method: 'DELETE', headers: auth(target) });
    },

    async fetchMetrics(target: TargetAccount, platformPostId: string): Promise<PostMetrics> {
      const answer = await callPlatform(`${instance(target)}/api/v1/statuses/${encodeURIComponent(platformPostId)}`, { headers: auth(target) });
      const s = answer.body as { favourites_count?: number; replies_count?: number; reblogs_count?: number };
      const count = (n: number | undefined) => (typeof n === 'number' ? n : null);
      return { impressions: null, likes: count(s.favourites_count), replies: count(s.replies_count), reposts: count(s.reblogs_count), clicks: null };
    },

    async preflight({ target, parts }: PublishRequest): Promise<void> {
      const answer = await callPlatform(`${instance(target)}/api/v2/instance`);
      checkAgainstInstance(parts, (answer.body as { configuration?: InstanceLimits }).configuration ?? {});
    },

    async validateCredentials(target: TargetAccount): Promise<boolean> {
      await me(target);
      return true;
    },
  };
}

/** The text of a status' HTML `content` (Mastodon renders paragraphs, `<br />` and linkified URLs). */
export function plainText(html: string): string {
  const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", '#39': "'" };
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/p>\s*<p[^>]*>/gi, '\n\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&(amp|lt|gt|quot|apos|#39);/g, (_m, name: string) => entities[name] ?? '')
    .trim();
}
