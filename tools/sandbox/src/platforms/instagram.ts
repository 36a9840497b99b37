import type { Route, SandboxPlatform } from '../router.js';
import {
  graphError,
  graphUnauthorized,
  withToken,
  graphTime,
  requested,
  graphId,
  containersOf,
  createContainer,
  containerStatus,
  carouselChildren,
  publishContainer,
  insightsAnswer,
  notFound,
} from './meta-graph.js';
import { captionProblem, containerInfo, isExpired, mediaContainer } from './instagram/containers.js';
import { withTokenAsync } from './meta-graph-async.js';
import { INSTAGRAM_RULES } from './instagram/rules.js';

export { INSTAGRAM_IMAGE, INSTAGRAM_RULES, INSTAGRAM_VIDEO } from './instagram/rules.js';
export { containerInfo as instagramContainerInfo } from './instagram/containers.js';

/**
 * Instagram Graph API (with Facebook Login): POST /:ig/media (containers: image_url, REELS video_url,
 * carousel children), GET /:id (container `status_code`, media fields, the account), POST
 * /:ig/media_publish, GET /:ig/media (recent media), POST /:id/comments, GET /:id/insights, DELETE /:id.
 * Video containers read IN_PROGRESS once before FINISHED; a media URL containing `broken` ends in ERROR.
 * Every image and video is pulled from its URL and read from its bytes (see INSTAGRAM_RULES): an image
 * breaking the rules is refused at container creation, a video's container ends in ERROR; a container older
 * than 24 hours is EXPIRED. A post records its media as Instagram read them, in order.
 */

const shortcode = (id: string) => Buffer.from(id).toString('base64url').slice(0, 11);

function mediaSource(params: Record<string, string>, inCarousel: boolean): string | undefined {
  const videoType = inCarousel ? 'VIDEO' : 'REELS';
  if (params.video_url) return params.media_type === videoType ? undefined : `(#100) video_url needs media_type ${videoType}`;
  if (params.image_url) return !params.media_type || params.media_type === 'IMAGE' ? undefined : '(#100) image_url does not go with this media_type';
  return '(#100) The parameter image_url or video_url is required';
}

const routes: Route[] = [
  {
    method: 'POST',
    path: '/:user/media',
    handle: withTokenAsync(async (req, state, params) => {
      const caption = captionProblem(params.caption);
      if (caption) return graphError(400, caption, 100);
      if (params.media_type === 'CAROUSEL') {
        const children = carouselChildren(state, req, params.children, 10);
        if (typeof children === 'string') return graphError(400, children, 100);
        return { status: 200, body: { id: createContainer(state, req, params).id } };
      }
      const problem = mediaSource(params, params.is_carousel_item === 'true');
      if (problem) return graphError(400, problem, 100);
      return mediaContainer(state, req, params);
    }),
  },
  {
    method: 'POST',
    path: '/:user/media_publish',
    creates: true,
    handle: withToken((req, state, params) => {
      const container = containersOf(state).get(params.creation_id ?? '');
      if (container && isExpired(container)) return graphError(400, 'The media container has expired: publish it within 24 hours of its creation', 9007, { error_subcode: 2207006 });
      return publishContainer(state, req, params, (c) => {
        const childContainers = c.params.children?.split(',').map((id) => containersOf(state).get(id)!);
        const media = (childContainers ?? [c]).map((k) => containerInfo(k).media!);
        const children = childContainers?.map((k) => k.params);
        return state.createPost('instagram', c.account, c.params.caption ?? '', { owner: c.owner, container: c.params, children, comments: [] }, graphId(), media);
      });
    }),
  },
  {
    method: 'GET',
    path: '/:user/media',
    handle: withToken((req, state) => {
      const data = state
        .postsOf('instagram', req.account)
        .filter((p) => p.details.owner === req.params.user)
        .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
        .map((p) => ({ id: p.id, caption: p.text, timestamp: graphTime(p.createdAt), permalink: `https://www.instagram.com/p/${shortcode(p.id)}/` }));
      return { status: 200, body: { data, paging: { cursors: { before: 'b', after: 'a' } } } };
    }),
  },
  {
    method: 'GET',
    path: '/:id',
    handle: withToken((req, state, params) => {
      const id = req.params.id!;
      const container = containersOf(state).get(id);
      if (container && isExpired(container)) return { status: 200, body: { id, status_code: 'EXPIRED', status: 'Expired: not published within 24 hours' } };
      if (container) {
        const error = containerInfo(container).error ?? 'media could not be fetched from the URI';
        return { status: 200, body: { id, status_code: containerStatus(container), ...(container.failed ? { status: `Error: ${error}` } : {}) } };
      }
      const post = state.find('instagram', id);
      if (post) return { status: 200, body: { id, permalink: `https://www.instagram.com/p/${shortcode(id)}/`, caption: post.text, timestamp: graphTime(post.createdAt) } };
      if ((/^\d+$/.test(id) || id === `ig-${req.account}`) && requested(params).has('username')) return { status: 200, body: { id, username: req.account } };
      return notFound(id);
    }),
  },
  {
    method: 'POST',
    path: '/:id/comments',
    handle: withToken((req, state, params) => {
      const post = state.find('instagram', req.params.id!);
      if (!post) return notFound(req.params.id!);
      if (!params.message) return graphError(400, '(#100) The parameter message is required', 100);
      (post.details.comments as string[]).push(params.message);
      return { status: 200, body: { id: graphId() } };
    }),
  },
  {
    method: 'GET',
    path: '/:id/insights',
    metrics: true,
    handle: withToken((req, state, params) => {
      const post = state.find('instagram', req.params.id!);
      if (!post) return notFound(req.params.id!);
      return insightsAnswer(
        post.id,
        { views: state.grow(post, 321), reach: state.grow(post, 250), likes: state.grow(post, 21), comments: (post.details.comments as string[]).length, shares: 4, saved: 3 },
        params,
      );
    }),
  },
  {
    method: 'DELETE',
    path: '/:id',
    handle: withToken((req, state) => (state.remove('instagram', req.params.id!) ? { status: 200, body: { success: true } } : notFound(req.params.id!))),
  },
];

export const instagram: SandboxPlatform = { name: 'instagram', unauthorized: graphUnauthorized, routes, rules: INSTAGRAM_RULES };
