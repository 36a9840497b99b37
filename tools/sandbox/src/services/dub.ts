import { randomBytes } from 'node:crypto';
import type { SandboxPlatform, SandboxRequest, SandboxResponse } from '../router.js';
import type { SandboxState } from '../state.js';

/**
 * Dub (dub.co) link API stand-in, under `/dub`: the calls of its documented REST API that a link shortener needs.
 * - `POST /dub/links` `{url, externalId?, key?}`: creates a short link; an `externalId` already used in the
 *   workspace answers 409 `conflict` (as Dub does). Answers the link object (`id` `link_…`, `domain`, `key`, `url`,
 *   `shortLink`, `externalId`, `clicks`, `createdAt`).
 * - `GET /dub/links/info?linkId=…` or `?externalId=ext_<id>`: the link, or 404 `not_found`.
 * - `GET /dub/analytics?event=clicks&groupBy=count&linkId=…`: `{clicks}`.
 * - `GET /dub/s/:key`: the short link itself: counts a click and redirects (302) to the destination, so a test
 *   "clicks" a link by fetching its shortLink.
 * Auth: `Authorization: Bearer dub_…` (Dub's API keys); anything else is Dub's 401 `unauthorized`. Links are kept
 * per API key (a key belongs to one Dub workspace).
 */
interface DubLink {
  id: string;
  domain: string;
  key: string;
  url: string;
  shortLink: string;
  externalId: string | null;
  clicks: number;
  createdAt: string;
  workspace: string;
}

/** Each sandbox's links by id. */
const linkStores = new WeakMap<SandboxState, Map<string, DubLink>>();
function linksOf(state: SandboxState): Map<string, DubLink> {
  let links = linkStores.get(state);
  if (!links) linkStores.set(state, (links = new Map()));
  return links;
}
const dubError = (status: number, code: string, message: string): SandboxResponse => ({
  status,
  body: { error: { code, message, doc_url: `https://dub.co/docs/api-reference/errors#${code.replace(/_/g, '-')}` } },
});
const unauthorized = () => dubError(401, 'unauthorized', 'Unauthorized: Invalid API key.');

/** The Dub workspace of the request's API key, or undefined when the key is missing or not a Dub key. */
function workspaceOf(req: SandboxRequest): string | undefined {
  return /^Bearer\s+(dub_\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
}

const view = ({ workspace: _w, ...link }: DubLink) => link;

function find(links: Map<string, DubLink>, workspace: string, query: URLSearchParams): DubLink | undefined {
  const linkId = query.get('linkId');
  const externalId = query.get('externalId')?.replace(/^ext_/, '');
  for (const link of links.values()) {
    if (link.workspace !== workspace) continue;
    if ((linkId && link.id === linkId) || (externalId && link.externalId === externalId)) return link;
  }
  return undefined;
}

export const dub: SandboxPlatform = {
  name: 'dub',
  unauthorized,
  routes: [
    {
      method: 'POST',
      path: '/links',
      creates: true,
      auth: false,
      handle: (req, state) => {
        const links = linksOf(state);
        const workspace = workspaceOf(req);
        if (!workspace) return unauthorized();
        const body = (req.body ?? {}) as { url?: unknown; externalId?: unknown; key?: unknown };
        if (typeof body.url !== 'string' || !/^https?:\/\/\S+$/i.test(body.url)) return dubError(422, 'unprocessable_entity', 'Invalid URL');
        const externalId = typeof body.externalId === 'string' && body.externalId ? body.externalId : null;
        if (externalId && find(links, workspace, new URLSearchParams({ externalId }))) return dubError(409, 'conflict', `A link with the externalId ${externalId} already exists.`);
        const key = typeof body.key === 'string' && body.key ? body.key : randomBytes(5).toString('base64url');
        if ([...links.values()].some((l) => l.key === key)) return dubError(409, 'conflict', 'Duplicate key: This short link already exists.');
        const host = req.headers.host ?? 'dub.sh';
        const link: DubLink = {
          id: `link_${randomBytes(12).toString('hex').toUpperCase()}`,
          domain: host,
          key,
          url: body.url,
          shortLink: `http://${host}/dub/s/${key}`,
          externalId,
          clicks: 0,
          createdAt: new Date().toISOString(),
          workspace,
        };
        links.set(link.id, link);
        return { status: 200, body: view(link) };
      },
    },
    {
      method: 'GET',
      path: '/links/info',
      auth: false,
      handle: (req, state) => {
        const workspace = workspaceOf(req);
        if (!workspace) return unauthorized();
        const link = find(linksOf(state), workspace, req.query);
        return link ? { status: 200, body: view(link) } : dubError(404, 'not_found', 'Link not found.');
      },
    },
    {
      method: 'GET',
      path: '/analytics',
      metrics: true,
      auth: false,
      handle: (req, state) => {
        const workspace = workspaceOf(req);
        if (!workspace) return unauthorized();
        if ((req.query.get('event') ?? 'clicks') !== 'clicks' || (req.query.get('groupBy') ?? 'count') !== 'count') {
          return dubError(422, 'unprocessable_entity', 'The stand-in answers event=clicks&groupBy=count only.');
        }
        const linkId = req.query.get('linkId');
        const selected = [...linksOf(state).values()].filter((l) => l.workspace === workspace && (!linkId || l.id === linkId));
        return { status: 200, body: { clicks: selected.reduce((sum, l) => sum + l.clicks, 0) } };
      },
    },
    {
      method: 'GET',
      path: '/s/:key',
      auth: false,
      handle: (req, state) => {
        const link = [...linksOf(state).values()].find((l) => l.key === req.params.key);
        if (!link) return { status: 404, body: 'Link not found' };
        link.clicks += 1;
        return { status: 302, headers: { location: link.url } };
      },
    },
  ],
};
