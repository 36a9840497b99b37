import type { SandboxRequest, SandboxResponse } from '../router.js';
import type { SandboxPost, SandboxState } from '../state.js';

/**
 * What the Meta Graph stand-ins (Instagram, Threads, Facebook) share: the error shape, the
 * `access_token` check, parameters from the query and the form body, media containers, insights.
 */

export const graphError = (status: number, message: string, code: number, extra: Record<string, unknown> = {}): SandboxResponse => ({
  status,
  body: { error: { message, type: 'OAuthException', code, ...extra, fbtrace_id: 'AsandboxTrace' } },
});

export const graphUnauthorized = (): SandboxResponse => graphError(400, 'Invalid OAuth access token - Cannot parse access token', 190);

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
export const withToken =
  (handler: Handler) =>
  (req: SandboxRequest, state: SandboxState): SandboxResponse => {
    if (!req.account || !/^(sandbox-|sbx_at_)/.test(req.query.get('access_token') ?? '')) return graphUnauthorized();
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
    id: graphId(),
    account: req.account!,
    owner: req.params.user!,
    params,
    reads: 0,
    failed: url.includes('broken'),
    slow: Boolean(params.video_url),
    published: false,
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
  return {
    status: 200,
    body: { data: metrics.map((name) => ({ name, period: 'lifetime', values: [{ value: values[name] }], title: name, description: name, id: `${id}/insights/${name}/lifetime` })) },
  };
};

export const notFound = (id: string) =>
  graphError(400, `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`, 100, { error_subcode: 33 });
