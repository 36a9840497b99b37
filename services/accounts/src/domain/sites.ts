import { invalidParameters, notFound } from '@spa/errors';
import { SITE_CMSES } from '@spa/vocabulary';
import type { Site } from './model.js';
import type { AccountsDeps } from './ports.js';
import { SITE_TOKEN_PREFIX, hashSecret, newSecret } from './secrets.js';
import { getWorkspace } from './workspaces.js';

/** Connects a site and returns its Site Connection token (shown once), bound to that site. */
export async function createSite(deps: AccountsDeps, input: { workspaceId: number; name: string; url: string; cms?: string | undefined }): Promise<{ siteId: number; token: string }> {
  await getWorkspace(deps, input.workspaceId);
  const problems: string[] = [];
  if (!input.name.trim()) problems.push('name must not be empty');
  const cms = input.cms ?? 'custom';
  if (!(SITE_CMSES as readonly string[]).includes(cms)) problems.push(`cms must be one of ${SITE_CMSES.join(', ')}`);
  let url: URL | undefined;
  try {
    url = new URL(input.url);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') problems.push('url must be http or https');
  } catch {
    problems.push('url is not a valid URL');
  }
  if (problems.length || !url) throw invalidParameters(problems);
  const token = newSecret(SITE_TOKEN_PREFIX);
  const siteId = await deps.ids.next('sites');
  await deps.sites.insert({
    id: siteId,
    workspaceId: input.workspaceId,
    name: input.name.trim(),
    url: url.toString(),
    cms,
    tokenHash: hashSecret(token),
    createdAt: deps.clock.now(),
    unmatchedPushes: 0,
  });
  return { siteId, token };
}

export async function getSite(deps: AccountsDeps, workspaceId: number, siteId: number): Promise<Site> {
  const site = await deps.sites.get(workspaceId, siteId);
  if (!site) throw notFound('Site');
  return site;
}
