import type { Route, SandboxPlatform, SandboxRequest, SandboxResponse } from '../router.js';
import type { SandboxPost, SandboxState } from '../state.js';

/**
 * Instagram Graph API (with Facebook Login): POST /:ig/media (containers: image_url, REELS video_url,
 * carousel children), GET /:id (container `status_code`, media fields, the account), POST
 * /:ig/media_publish, GET /:ig/media (recent media), POST /:id/comments, GET /:id/insights, DELETE /:id.
 * Video containers read IN_PROGRESS once before FINISHED; a media URL containing `broken` ends in ERROR.
 *
 * Also the Meta Graph helpers the Threads and Facebook stand-ins share: the error shape, the
 * `access_token` check, parameters from the query and the form body, media containers.
 */

// ---- Meta Graph helpers (shared with threads.ts and facebook.ts) ----

export const graphError = (status: number, message: string, code: number, extra: Record<string, unknown> = {}): SandboxResponse => ({
  status,
  body: { error: { message, type: 'OAuthException', code, ...extra, fbtrace_id: 'AsandboxTrace' } },
});

export const graphUnauthorized = (): SandboxResponse =>
  graphError(400, 'Invalid OAuth access token - Cannot parse access token', 190);

/** Graph reads parameters from the query string and the form body alike (the token aside). */
export function graphParams(req: SandboxRequest): Record<string, string> {
  const { access_token: _token, ...params } = { ...Object.fromEntries(req.query), ...((req.body && !Buffer.isBuffer(req.body) ? req.body : {}) as Record<string, string>) };
  return params;
}

type Handler = (req: SandboxRequest, state: SandboxState, params: Record<string, string>) => SandboxResponse;

/**
 * The server takes any `access_token` value as an account; Meta only accepts valid tokens (`sandbox-<account>`).
 * The account `throttled` gets Meta's application rate limit (code 4, status 400), as an app over its quota does.
 */
export const withToken = (handler: Handler) => (req: SandboxRequest, state: SandboxState): SandboxResponse => {
  if (!req.query.get('access_token')?.startsWith('sandbox-')) return graphUnauthorized();
  if (req.account === 'throttled') return graphError(400, '(#4) Application request limit reached', 4, { is_transient: true });
  return handler(req, state, graphParams(req));
};

/** Graph's timestamp format: `2026-11-22T12:00:00+0000`. */
export const graphTime = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, '+0000');

export const requested = (params: Record<string, string>) => new Set((params.fields ?? 'id').split(','));

let sequence = 17_900_000_000_000_000n;
export const graphId = () => String((sequence += 1n));

export interface Container {
  id: string;
  account: string;
  owner: string;
  params: Record<string, string>;
  reads: number;
  failed: boolean;
  slow: boolean;
  published: boolean;
}
const stores = new WeakMap<SandboxState, Map<string, Container>>();
export const containersOf = (state: SandboxState) => stores.get(state) ?? stores.set(state, new Map()).get(state)!;

export function createContainer(state: SandboxState, req: SandboxRequest, params: Record<string, string>): Container {
  const url = params.video_url ?? params.image_url ?? '';
  const container = {
    id: graphId(), account: req.account!, owner: req.params.user!, params, reads: 0,
    failed: url.includes('broken'), slow: Boolean(params.video_url), published: false,
  };
  containersOf(state).set(container.id, container);
  return container;
}

/** A container's state as a status read sees it: videos need one more read. */
export function containerStatus(container: Container): 'IN_PROGRESS' | 'FINISHED' | 'ERROR' | 'PUBLISHED' {
  container.reads += 1;
  if (container.published) return 'PUBLISHED';
  if (container.failed) return 'ERROR';
  return container.slow && container.reads < 2 ? 'IN_PROGRESS' : 'FINISHED';
}

/** Children of a carousel: 2 to `max` FINISHED carousel-item containers of the same account. */
export function carouselChildren(state: SandboxState, req: SandboxRequest, children: string | undefined, max: number): Container[] | string {
  const ids = (children ?? '').split(',').filter(Boolean);
  if (ids.length < 2 || ids.length > max) return `(#100) children must list 2 to ${max} containers`;
  const found = ids.map((id) => containersOf(state).get(id));
  if (found.some((c) => !c || c.account !== req.account || c.params.is_carousel_item !== 'true' || c.failed)) return '(#100) children must be carousel item containers';
  return found as Container[];
}

/** POST /:user/<publish edge>: a FINISHED, unpublished container of this account becomes a post. */
export function publishContainer(state: SandboxState, req: SandboxRequest, params: Record<string, string>, toPost: (c: Container) => SandboxPost): SandboxResponse {
  const container = containersOf(state).get(params.creation_id ?? '');
  if (!container || container.account !== req.account || container.owner !== req.params.user) return graphError(400, '(#100) creation_id is not a container of this user', 100);
  if (container.failed || (container.slow && container.reads < 2)) return graphError(400, 'Media ID is not available', 9007, { error_subcode: 2207027 });
  if (container.published) return graphError(400, 'The media has already been published', 9007, { error_subcode: 2207008 });
  container.published = true;
  return { status: 200, body: { id: toPost(container).id } };
}

export const insightsAnswer = (id: string, values: Record<string, unknown>, params: Record<string, string>): SandboxResponse => {
  const metrics = (params.metric ?? '').split(',').filter(Boolean);
  const unknown = metrics.find((m) => !(m in values));
  if (!metrics.length || unknown) return graphError(400, `(#100) metric[0] must be one of the following values: ${Object.keys(values).join(', ')}`, 100);
  return { status: 200, body: { data: metrics.map((name) => ({ name, period: 'lifetime', values: [{ value: values[name] }], title: name, description: name, id: `${id}/insights/${name}/lifetime` })) } };
};

export const notFound = (id: string) => graphError(400, `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`, 100, { error_subcode: 33 });

// ---- Instagram ----

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
    handle: withToken((req, state, params) => {
      if ((params.caption?.length ?? 0) > 2200) return graphError(400, '(#100) The caption is too long', 100);
      if (params.media_type === 'CAROUSEL') {
        const children = carouselChildren(state, req, params.children, 10);
        if (typeof children === 'string') return graphError(400, children, 100);
      } else {
        const problem = mediaSource(params, params.is_carousel_item === 'true');
        if (problem) return graphError(400, problem, 100);
      }
      return { status: 200, body: { id: createContainer(state, req, params).id } };
    }),
  },
  {
    method: 'POST',
    path: '/:user/media_publish',
    creates: true,
    handle: withToken((req, state, params) =>
      publishContainer(state, req, params, (c) => {
        const children = c.params.children?.split(',').map((id) => containersOf(state).get(id)?.params);
        return state.createPost('instagram', c.account, c.params.caption ?? '', { owner: c.owner, container: c.params, children, comments: [] }, graphId());
      }),
    ),
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
      if (container) return { status: 200, body: { id, status_code: containerStatus(container), ...(container.failed ? { status: 'Error: media could not be fetched from the URI' } : {}) } };
      const post = state.find('instagram', id);
      if (post) return { status: 200, body: { id, permalink: `https://www.instagram.com/p/${shortcode(id)}/`, caption: post.text, timestamp: graphTime(post.createdAt) } };
      if (/^\d+$/.test(id) && requested(params).has('username')) return { status: 200, body: { id, username: req.account } };
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
    handle: withToken((req, state, params) => {
      const post = state.find('instagram', req.params.id!);
      if (!post) return notFound(req.params.id!);
      return insightsAnswer(post.id, { views: 321, reach: 250, likes: 21, comments: (post.details.comments as string[]).length, shares: 4, saved: 3 }, params);
    }),
  },
  {
    method: 'DELETE',
    path: '/:id',
    handle: withToken((req, state) => (state.remove('instagram', req.params.id!) ? { status: 200, body: { success: true } } : notFound(req.params.id!))),
  },
];

export const instagram: SandboxPlatform = { name: 'instagram', unauthorized: graphUnauthorized, routes };
