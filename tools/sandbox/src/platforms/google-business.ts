import type { InspectedMedia } from '../media/inspect.js';
import { fetchMedia } from '../media/receive.js';
import { mediaViolation, type SandboxMediaRule } from '../media/rules.js';
import type { PlatformRules, SandboxPlatform, SandboxRequest, SandboxResponse } from '../router.js';
import type { SandboxPost } from '../state.js';

const LOCAL_POSTS = 'https://developers.google.com/my-business/reference/rest/v4/accounts.locations.localPosts';
const PHOTO_GUIDELINES = 'https://developers.google.com/my-business/content/upload-photos';

/** Photos: JPG or PNG, 10 KB to 5 MB, at least 250 x 250 pixels. */
export const GOOGLE_BUSINESS_PHOTO: SandboxMediaRule = { types: ['image/jpeg', 'image/png'], max_bytes: 5 * 1024 * 1024, min_width: 250, min_height: 250, source: PHOTO_GUIDELINES };
const MIN_PHOTO_BYTES = 10 * 1024;

export const GOOGLE_BUSINESS_RULES: PlatformRules = {
  media: { image: GOOGLE_BUSINESS_PHOTO },
  other: [
    { rule: 'a photo is at least 10 KB; it is fetched from `sourceUrl`, and one Google cannot fetch or read is refused (400 INVALID_ARGUMENT)', source: PHOTO_GUIDELINES },
    { rule: 'a local post takes its media by sourceUrl only, one PHOTO item (no video in local posts)', source: LOCAL_POSTS },
    { rule: 'summary required, at most 1500 characters; languageCode required; topicType STANDARD, EVENT or OFFER', source: LOCAL_POSTS },
    { rule: 'a summary with a phone number is accepted with state REJECTED (policy)', source: 'https://support.google.com/business/answer/7213077' },
  ],
};

/**
 * Google Business Profile API v4 local posts, under `/v4/accounts/:account/locations/:location`:
 * POST …/localPosts (LocalPost: languageCode, summary ≤1500, topicType, media[≤1] PHOTO sourceUrl),
 * GET …/localPosts, DELETE …/localPosts/:id, POST …/localPosts:reportInsights (localPostNames,
 * basicRequest.metricRequests → localPostMetrics[].metricValues[].totalValue.value as strings).
 * A summary with a phone number is answered 200 with `state: REJECTED`, as Google does for policy refusals.
 * The photo is fetched from its sourceUrl and read from its bytes (GOOGLE_BUSINESS_RULES); the post records it.
 * Errors are Google's `{error:{code, message, status}}`.
 */
const googleError = (code: number, status: string, message: string): SandboxResponse => ({ status: code, body: { error: { code, message, status } } });
const invalid = (message: string) => googleError(400, 'INVALID_ARGUMENT', `Request contains an invalid argument. ${message}`);
const parent = (req: SandboxRequest) => `accounts/${req.params.account}/locations/${req.params.location}`;

function localPost(post: SandboxPost) {
  return { summary: post.text, createTime: post.createdAt.toISOString(), updateTime: post.createdAt.toISOString(), ...post.details };
}

const METRICS: Record<string, string> = { LOCAL_POST_VIEWS_SEARCH: '45', LOCAL_POST_ACTIONS_CALL_TO_ACTION: '6' };

export const googleBusiness: SandboxPlatform = {
  name: 'google_business',
  rules: GOOGLE_BUSINESS_RULES,
  unauthorized: () => googleError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.'),
  routes: [
    {
      method: 'POST',
      path: '/v4/accounts/:account/locations/:location/localPosts',
      creates: true,
      handle: async (req, state) => {
        const body = (req.body ?? {}) as { languageCode?: string; summary?: string; topicType?: string; media?: Array<{ mediaFormat?: string; sourceUrl?: string }> };
        if (!body.languageCode) return invalid('languageCode is required.');
        if (!['STANDARD', 'EVENT', 'OFFER'].includes(body.topicType ?? '')) return invalid('topicType is invalid.');
        if (!body.summary || body.summary.length > 1500) return invalid('summary is required and at most 1500 characters.');
        const media = body.media ?? [];
        if (media.length > 1 || media.some((m) => m.mediaFormat !== 'PHOTO' || !m.sourceUrl)) return invalid('media must be one PHOTO with a sourceUrl.');
        const read: InspectedMedia[] = [];
        for (const m of media) {
          const fetched = await fetchMedia(m.sourceUrl!);
          if ('error' in fetched) return invalid(`media.sourceUrl could not be fetched: ${fetched.error}.`);
          const problem =
            fetched.media.bytes < MIN_PHOTO_BYTES ? `file size ${fetched.media.bytes} bytes is below the minimum of ${MIN_PHOTO_BYTES}` : mediaViolation(fetched.media, GOOGLE_BUSINESS_PHOTO);
          if (problem) return invalid(`media[0] is not a valid photo: ${problem}.`);
          read.push(fetched.media);
        }
        const id = String(Date.now()) + String(Math.floor(Math.random() * 1e6)).padStart(6, '0');
        const name = `${parent(req)}/localPosts/${id}`;
        const rejected = /\+?\d[\d\s().-]{7,}\d/.test(body.summary);
        const post = state.createPost(
          'google_business',
          req.account!,
          body.summary,
          {
            name,
            languageCode: body.languageCode,
            topicType: body.topicType,
            media,
            state: rejected ? 'REJECTED' : 'LIVE',
            searchUrl: `https://local.google.com/place?id=${req.params.location}&use=posts&lpsid=${id}`,
          },
          id,
          read,
        );
        return { status: 200, body: localPost(post) };
      },
    },
    {
      method: 'GET',
      path: '/v4/accounts/:account/locations/:location/localPosts',
      handle: (req, state) => {
        const pageSize = Number(req.query.get('pageSize') ?? 100);
        const localPosts = state
          .postsOf('google_business', req.account)
          .filter((p) => String(p.details.name).startsWith(`${parent(req)}/`))
          .reverse()
          .slice(0, pageSize)
          .map(localPost);
        return { status: 200, body: localPosts.length ? { localPosts } : {} };
      },
    },
    {
      method: 'DELETE',
      path: '/v4/accounts/:account/locations/:location/localPosts/:id',
      handle: (req, state) => (state.remove('google_business', req.params.id!) ? { status: 200, body: {} } : googleError(404, 'NOT_FOUND', 'Requested entity was not found.')),
    },
    {
      method: 'POST',
      // `:reportInsights` is the custom method suffix (`localPosts:reportInsights`); the router reads it as a parameter.
      path: '/v4/accounts/:account/locations/:location/localPosts:reportInsights',
      handle: (req, state) => {
        if (req.params.reportInsights !== ':reportInsights') return googleError(404, 'NOT_FOUND', 'Method not found.');
        const body = (req.body ?? {}) as { localPostNames?: string[]; basicRequest?: { metricRequests?: Array<{ metric?: string }>; timeRange?: { startTime?: string; endTime?: string } } };
        const names = body.localPostNames ?? [];
        const requests = body.basicRequest?.metricRequests ?? [];
        if (!names.length || !requests.length || !body.basicRequest?.timeRange?.startTime || !body.basicRequest.timeRange.endTime) {
          return invalid('localPostNames, basicRequest.metricRequests and basicRequest.timeRange are required.');
        }
        const known = state.postsOf('google_business', req.account).map((p) => p.details.name);
        if (names.some((n) => !known.includes(n))) return googleError(404, 'NOT_FOUND', 'Requested entity was not found.');
        const localPostMetrics = names.map((localPostName) => ({
          localPostName,
          metricValues: requests
            .filter((r) => r.metric && r.metric in METRICS)
            .map((r) => ({ metric: r.metric, totalValue: { metricOption: 'AGGREGATED_TOTAL', timeDimension: { timeRange: body.basicRequest?.timeRange }, value: METRICS[r.metric!] } })),
        }));
        return { status: 200, body: { name: parent(req), localPostMetrics, timeZone: 'Europe/London' } };
      },
    },
  ],
};
