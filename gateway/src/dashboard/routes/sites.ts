import type { SiteInfo } from '@spa/contracts/accounts/v1/dashboard';
import { SITE_CMSES } from '@spa/vocabulary';
import { z } from 'zod';
import { validate } from '../../http/validate.js';
import type { DashboardRoute, MemberContext } from '../context.js';

const CreateBody = z.object({ name: z.string().trim().min(1).max(200), url: z.url({ protocol: /^https?$/ }).max(2048), cms: z.enum(SITE_CMSES).default('custom') }).strict();

const siteJson = (s: SiteInfo) => ({
  id: s.id,
  name: s.name,
  url: s.url,
  cms: s.cms,
  created_at: s.createdAt,
  last_push_at: s.lastPushAt ?? null,
  unmatched_pushes: s.unmatchedPushes,
});

const page = async (ctx: MemberContext) => ({ sites: (await ctx.clients.dashboard.listSites({ workspaceId: ctx.workspace.id })).sites.map(siteJson), cms_options: SITE_CMSES });

/** Sites: connected sites and their push activity; a new site's token is shown once. */
export const siteRoutes: DashboardRoute[] = [
  { method: 'get', path: '/sites', handle: page },
  {
    method: 'post',
    path: '/sites',
    status: 201,
    handle: async (ctx, req) => {
      const body = validate(CreateBody, req.body ?? undefined, 'request body');
      const { siteId, token } = await ctx.clients.accounts.createSite({ workspaceId: ctx.workspace.id, name: body.name, url: body.url, cms: body.cms });
      return { site_id: siteId, token, ...(await page(ctx)) };
    },
  },
];
