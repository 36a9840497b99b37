import { callPlatform } from './http.js';
import { linkedinAuthor as author, linkedinHeaders as headers } from './linkedin-api.js';
import { linkedinUploads } from './linkedin-uploads.js';
import { ConnectorError, postGone, type Connector, type ContentPart, type PostMetrics, type Published, type PublishRequest, type TargetAccount } from './types.js';

/** `commentary` is "little text": these characters are markup unless escaped. */
export function escapeLittleText(text: string): string {
  return text.replace(/[\\|{}@[\]()<>#*_~]/g, (c) => `\\${c}`);
}

/** A multi-image post takes 2 to 20 images (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/multiimage-post-api). */
const LINKEDIN_MAX_IMAGES = 20;

const POLL_DURATIONS: Array<[number, string]> = [
  [1440, 'ONE_DAY'],
  [4320, 'THREE_DAYS'],
  [10080, 'SEVEN_DAYS'],
];
const pollDuration = (minutes: number) => POLL_DURATIONS.find(([max]) => minutes <= max)?.[1] ?? 'FOURTEEN_DAYS';

/** What a post's media can be: images (2–20 as a multi-image post), one video or one document. */
function checkMedia(part: Pick<ContentPart, 'media' | 'assetUrn'>): void {
  if (part.assetUrn) return;
  if (part.media.some((m) => m.type === 'video') && part.media.length > 1) throw new ConnectorError('rejected', 'linkedin: a video post carries that one video only (no images, no second video)');
  const documents = part.media.filter((m) => m.type === 'document');
  if (documents.length && part.media.length > 1) throw new ConnectorError('rejected', 'linkedin: a document post carries that one document only (no images, no second document)');
  if (part.media.length > LINKEDIN_MAX_IMAGES) throw new ConnectorError('rejected', `linkedin: a multi-image post takes at most ${LINKEDIN_MAX_IMAGES} images (${part.media.length} given)`);
}

/** Parts after the first become comments, which carry text only: media there would be lost, so it is refused. */
function checkComments(parts: ContentPart[]): void {
  if (parts.slice(1).some((p) => p.media.length || p.assetUrn || p.poll))
    throw new ConnectorError('rejected', 'linkedin: parts after the first become comments, which take text only (no media, no poll)');
}

/** Which social account uploaded an asset URN through the API (the media service keeps the record). */
export interface LinkedInAssetRecords {
  /** The uploading social account's id; undefined when no upload through the API recorded the URN. */
  uploaderOf(assetUrn: string): Promise<number | undefined>;
}

/** Without records, no asset URN can be checked, so none is used. */
const NO_RECORDS: LinkedInAssetRecords = { uploaderOf: async () => undefined };

/**
 * LinkedIn (versioned Posts API under `/rest`, Rest.li 2.0, OAuth 2.0 member token).
 *
 * Credentials besides `access_token`: `author_urn`, the author of the posts: `urn:li:person:…`
 * (scope w_member_social) or `urn:li:organization:…` (w_organization_social, r_organization_social).
 * validateCredentials reads `/v2/userinfo` (scope openid).
 *
 * - The post URN comes back in the `x-restli-id` header of the 201 (empty body).
 * - Images, a video and a document referenced by r2_key are uploaded at publish time (linkedin-uploads.ts);
 *   a video is posted once GET /rest/videos/{urn} says AVAILABLE (polled every `videoIntervalMs` for at
 *   most `videoWaitMs`; PROCESSING_FAILED is rejected with LinkedIn's reason). An
 *   asset uploaded beforehand through the API (`POST /linkedin/image_uploads` or `/linkedin/video_uploads`)
 *   is given as `part.assetUrn` (`content.media.id`); it is scoped to the social account that uploaded
 *   it (the media service's record, asked through `assets`): any other account's target is refused.
 * - A poll (`content.poll`) uses the text as its question (≤140 chars); durations round up to
 *   LinkedIn's ONE_DAY / THREE_DAYS / SEVEN_DAYS / FOURTEEN_DAYS.
 * - LinkedIn has no threads: the first comment, then the parts after the first, become comments on
 *   the post (`POST /rest/socialActions/{urn}/comments`).
 * - Metrics: organization posts read `organizationalEntityShareStatistics`; member posts only have
 *   like and comment counts (`/rest/socialActions/{urn}`).
 */
export interface LinkedInOptions {
  /** How long to wait for an uploaded video to finish processing (GET /rest/videos/{urn} polled), ms. */
  videoWaitMs: number;
  videoIntervalMs: number;
}

const DEFAULTS: LinkedInOptions = { videoWaitMs: 10 * 60_000, videoIntervalMs: 5000 };

export function linkedinConnector(baseUrl = 'https://api.linkedin.com', assets: LinkedInAssetRecords = NO_RECORDS, overrides: Partial<LinkedInOptions> = {}): Connector {
  const options = { ...DEFAULTS, ...overrides };
  const enc = encodeURIComponent;
  const uploads = linkedinUploads(baseUrl);
  const permalink = (urn: string) => `https://www.linkedin.com/feed/update/${urn}`;
  const title = (r2Key: string) => r2Key.split('/').pop() || 'Document';

  /** `content.media` of an asset uploaded beforehand through the API, once it is known to be this account's. */
  async function assetContent(target: TargetAccount, urn: string): Promise<Record<string, unknown>> {
    const uploader = await assets.uploaderOf(urn);
    if (uploader === undefined) {
      throw new ConnectorError('rejected', `linkedin: asset_urn ${urn} was not uploaded through this API (POST /linkedin/image_uploads or /linkedin/video_uploads)`);
    }
    if (uploader !== target.socialAccountId) {
      throw new ConnectorError('rejected', `linkedin: asset_urn ${urn} was uploaded by social account ${uploader}, not by this one (${target.socialAccountId}); upload it with this account`);
    }
    return { media: { id: urn } };
  }

  /**
   * Waits until LinkedIn has processed an uploaded video (status AVAILABLE): a post with a video still
   * PROCESSING is refused. PROCESSING_FAILED is LinkedIn refusing the file (rejected, with its reason);
   * still processing after `videoWaitMs` is worth another try later (transient).
   */
  async function videoReady(target: TargetAccount, urn: string): Promise<void> {
    const deadline = Date.now() + options.videoWaitMs;
    for (;;) {
      const answer = await callPlatform(`${baseUrl}/rest/videos/${enc(urn)}`, { headers: headers(target) });
      const video = answer.body as { status?: string; processingFailureReason?: string };
      if (video.status === 'AVAILABLE') return;
      if (video.status === 'PROCESSING_FAILED') throw new ConnectorError('rejected', `linkedin: video ${urn} PROCESSING_FAILED: ${video.processingFailureReason ?? 'no reason given'}`);
      if (Date.now() >= deadline) throw new ConnectorError('transient', `linkedin: video ${urn} is still ${video.status ?? 'processing'} after ${options.videoWaitMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, options.videoIntervalMs));
    }
  }

  async function content(target: TargetAccount, part: ContentPart): Promise<Record<string, unknown> | undefined> {
    if (part.poll) {
      return {
        poll: {
          question: part.body.slice(0, 140),
          options: part.poll.options.map((text) => ({ text })),
          settings: { duration: pollDuration(part.poll.durationMinutes), voteSelectionType: 'SINGLE_VOTE' },
        },
      };
    }
    if (part.assetUrn) return assetContent(target, part.assetUrn);
    checkMedia(part);
    const video = part.media.find((m) => m.type === 'video');
    if (video) {
      const { urn } = await uploads.upload(target, 'video', (await video.read()).bytes);
      await videoReady(target, urn);
      return { media: { id: urn } };
    }
    const document = part.media.find((m) => m.type === 'document');
    if (document) return { media: { id: (await uploads.upload(target, 'document', (await document.read()).bytes)).urn, title: title(document.r2Key) } };
    const images: string[] = [];
    for (const item of part.media) images.push((await uploads.upload(target, 'image', (await item.read()).bytes)).urn);
    if (images.length === 1) return { media: { id: images[0] } };
    if (images.length > 1) return { multiImage: { images: images.map((id) => ({ id })) } };
    return undefined;
  }

  async function createPost(target: TargetAccount, part: ContentPart): Promise<string> {
    const media = await content(target, part);
    const answer = await callPlatform(`${baseUrl}/rest/posts`, {
      method: 'POST',
      headers: headers(target),
      body: {
        author: author(target),
        commentary: escapeLittleText(part.body),
        visibility: 'PUBLIC',
        distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
        lifecycleState: 'PUBLISHED',
        isReshareDisabledByAuthor: false,
        ...(media ? { content: media } : {}),
      },
    });
    const urn = answer.headers.get('x-restli-id');
    // Accepted, but we cannot tell which post it is: reconcile with findPublished.
    if (!urn) throw new ConnectorError('unknown_outcome', 'linkedin: POST /rest/posts answered without an x-restli-id header');
    return urn;
  }

  async function comment(target: TargetAccount, urn: string, text: string): Promise<void> {
    await callPlatform(`${baseUrl}/rest/socialActions/${enc(urn)}/comments`, {
      method: 'POST',
      headers: headers(target),
      body: { actor: author(target), object: urn, message: { text } },
    });
  }

  return {
    platform: 'linkedin',

    async publish({ target, parts }: PublishRequest): Promise<Published> {
      const [first, ...rest] = parts;
      if (!first) throw new Error('nothing to publish');
      checkComments(parts);
      const urn = await createPost(target, first);
      if (first.firstComment) await comment(target, urn, first.firstComment);
      for (const part of rest) await comment(target, urn, part.body);
      return { platformPostId: urn, permalink: permalink(urn) };
    },

    async findPublished({ target, parts }: PublishRequest, since: Date): Promise<Published | null> {
      const answer = await callPlatform(`${baseUrl}/rest/posts?author=${enc(author(target))}&q=author&count=50&sortBy=CREATED`, {
        headers: headers(target, { 'x-restli-method': 'FINDER' }),
      });
      const posts = (answer.body as { elements?: Array<{ id: string; commentary?: string; createdAt?: number }> }).elements ?? [];
      const text = escapeLittleText(parts[0]?.body ?? '');
      const found = posts.find((p) => p.commentary === text && (p.createdAt ?? 0) >= since.getTime());
      return found ? { platformPostId: found.id, permalink: permalink(found.id) } : null;
    },

    async delete(target: TargetAccount, platformPostId: string): Promise<void> {
      await callPlatform(`${baseUrl}/rest/posts/${enc(platformPostId)}`, { method: 'DELETE', headers: headers(target, { 'x-restli-method': 'DELETE' }) });
    },

    async fetchMetrics(target: TargetAccount, platformPostId: string): Promise<PostMetrics> {
      const owner = author(target);
      if (owner.startsWith('urn:li:organization:')) {
        const key = platformPostId.startsWith('urn:li:ugcPost:') ? 'ugcPosts' : 'shares';
        const answer = await callPlatform(`${baseUrl}/rest/organizationalEntityShareStatistics?q=organizationalEntity&organizationalEntity=${enc(owner)}&${key}=List(${enc(platformPostId)})`, {
          headers: headers(target),
        });
        const [element] = (answer.body as { elements?: Array<{ totalShareStatistics?: Record<string, number> }> }).elements ?? [];
        // The statistics leave out a share that no longer exists.
        if (!element) throw postGone(`linkedin: ${platformPostId} no longer exists`);
        const s = element.totalShareStatistics ?? {};
        return { impressions: s.impressionCount ?? null, likes: s.likeCount ?? null, replies: s.commentCount ?? null, reposts: s.shareCount ?? null, clicks: s.clickCount ?? null };
      }
      const answer = await callPlatform(`${baseUrl}/rest/socialActions/${enc(platformPostId)}`, { headers: headers(target) });
      const body = answer.body as { likesSummary?: { totalLikes?: number }; commentsSummary?: { aggregatedTotalComments?: number } };
      // Member posts: LinkedIn reports likes and comments only.
      return { impressions: null, likes: body.likesSummary?.totalLikes ?? null, replies: body.commentsSummary?.aggregatedTotalComments ?? null, reposts: null, clicks: null };
    },

    async preflight({ parts }: PublishRequest): Promise<void> {
      if (parts[0]) checkMedia(parts[0]);
      checkComments(parts);
    },

    async validateCredentials(target: TargetAccount): Promise<boolean> {
      await callPlatform(`${baseUrl}/v2/userinfo`, { headers: { authorization: `Bearer ${target.credentials.access_token}` } });
      return true;
    },
  };
}
