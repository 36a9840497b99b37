import twitterText from 'twitter-text';
import type { InspectedMedia } from '../media/inspect.js';
import type { SandboxPlatform, SandboxResponse } from '../router.js';
import type { SandboxState } from '../state.js';
import { expired, mediaRoutes } from './twitter/media.js';
import { invalidRequest, MAX_WEIGHTED_LENGTH, X_RULES } from './twitter/rules.js';

export { X_GIF, X_IMAGE, X_RULES, X_VIDEO } from './twitter/rules.js';

/** The post's media as X reads them, or X's refusal: known, own, unexpired, processed ids; 4 images or 1 video or 1 GIF. */
function postMedia(state: SandboxState, account: string | undefined, ids: string[]): InspectedMedia[] | SandboxResponse {
  const media: InspectedMedia[] = [];
  const categories: string[] = [];
  for (const id of ids) {
    const upload = state.media.get(id);
    if (!upload || upload.platform !== 'twitter' || upload.account !== account || expired(upload)) return invalidRequest(`Your media IDs are invalid: ${id} is unknown or expired.`);
    if (upload.status !== 'succeeded' || !upload.facts) return invalidRequest(`Your media IDs are invalid: ${id} has not finished processing (${upload.status}).`);
    media.push(upload.facts);
    categories.push(String(upload.extra?.category));
  }
  const timed = categories.filter((c) => c !== 'tweet_image').length;
  if (timed > 1 || (timed === 1 && categories.length > 1)) return invalidRequest('A post may carry 4 images, or 1 video, or 1 GIF: media cannot be mixed.');
  if (categories.length > 4) return invalidRequest('A post may carry at most 4 images.');
  return media;
}

/**
 * X API v2: POST /2/tweets (text counted as twitter-text weighs it, reply.in_reply_to_tweet_id, media.media_ids
 * checked and recorded as X read them, poll), DELETE /2/tweets/:id, GET /2/tweets/:id (public_metrics; a post that
 * no longer exists answers 200 with a resource-not-found error, as X does), GET /2/users/me, GET /2/users/:id/tweets
 * (start_time), and the media upload (see twitter/media.ts).
 */
export const twitter: SandboxPlatform = {
  name: 'twitter',
  unauthorized: () => ({ status: 401, body: { title: 'Unauthorized', type: 'about:blank', status: 401, detail: 'Unauthorized' } }),
  rules: X_RULES,
  routes: [
    ...mediaRoutes,
    {
      method: 'POST',
      path: '/2/tweets',
      creates: true,
      handle: (req, state) => {
        const body = req.body as { text?: string; reply?: { in_reply_to_tweet_id?: string }; media?: { media_ids?: string[] }; poll?: { options?: string[]; duration_minutes?: number } };
        const text = typeof body?.text === 'string' ? body.text : '';
        const ids = body?.media?.media_ids ?? [];
        if (!text && !ids.length) return invalidRequest('text is required when the post has no media');
        const weighted = twitterText.parseTweet(text).weightedLength;
        if (weighted > MAX_WEIGHTED_LENGTH) return invalidRequest(`text is ${weighted} weighted characters; at most ${MAX_WEIGHTED_LENGTH}`);
        if (body.poll && ids.length) return invalidRequest('poll and media cannot be combined');
        if (body.reply?.in_reply_to_tweet_id && !state.find('twitter', body.reply.in_reply_to_tweet_id)) return invalidRequest('reply target not found');
        const media = postMedia(state, req.account, ids);
        if (!Array.isArray(media)) return media;
        const post = state.createPost(
          'twitter',
          req.account!,
          text,
          { reply: body.reply, media: body.media, poll: body.poll },
          String(Date.now()) + String(Math.floor(Math.random() * 1e6)).padStart(6, '0'),
          media,
        );
        return { status: 201, body: { data: { id: post.id, text: post.text, edit_history_tweet_ids: [post.id] } } };
      },
    },
    {
      method: 'DELETE',
      path: '/2/tweets/:id',
      handle: (req, state) => ({ status: 200, body: { data: { deleted: state.remove('twitter', req.params.id!) } } }),
    },
    {
      method: 'GET',
      path: '/2/tweets/:id',
      metrics: true,
      handle: (req, state) => {
        const post = state.find('twitter', req.params.id!);
        if (!post) {
          const id = req.params.id!;
          const error = { value: id, detail: `Could not find tweet with id: [${id}].`, title: 'Not Found Error', resource_type: 'tweet', parameter: 'id', resource_id: id };
          return { status: 200, body: { errors: [{ ...error, type: 'https://api.twitter.com/2/problems/resource-not-found' }] } };
        }
        return {
          status: 200,
          body: {
            data: {
              id: post.id,
              text: post.text,
              public_metrics: {
                impression_count: state.grow(post, 100),
                like_count: state.grow(post, 7),
                reply_count: state.grow(post, 2),
                retweet_count: state.grow(post, 3),
                quote_count: state.grow(post, 1),
                bookmark_count: 0,
              },
              non_public_metrics: { url_link_clicks: state.grow(post, 4) },
            },
          },
        };
      },
    },
    {
      method: 'GET',
      path: '/2/users/me',
      handle: (req) => ({ status: 200, body: { data: { id: `u-${req.account}`, name: req.account, username: req.account } } }),
    },
    {
      method: 'GET',
      path: '/2/users/:id/tweets',
      handle: (req, state) => {
        const since = Date.parse(req.query.get('start_time') ?? '1970-01-01T00:00:00Z');
        const account = req.params.id!.replace(/^u-/, '');
        const limit = Math.min(Number(req.query.get('max_results') ?? 10), 100);
        const recent = state.postsOf('twitter', account).filter((p) => p.createdAt.getTime() >= since);
        const { items, next } = state.page(recent, limit, req.query.get('pagination_token'));
        const data = items.map((p) => ({ id: p.id, text: p.text, created_at: p.createdAt.toISOString() }));
        const meta = { result_count: data.length, ...(next ? { next_token: next } : {}) };
        return { status: 200, body: data.length ? { data, meta } : { meta } };
      },
    },
  ],
};
