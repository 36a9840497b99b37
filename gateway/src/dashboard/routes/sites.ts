import type { SiteInfo } from '@spa/contracts/accounts/v1/dashboard';
import { PLATFORMS, SITE_CMSES } from '@spa/vocabulary';
import { z } from 'zod';
import { validate } from '../../http/validate.js';
import { idParam } from '../../routes/schemas.js';
import type { DashboardRoute, MemberContext } from '../context.js';

const CreateBody = z.object({ name: z.string().trim().min(1).max(200), url: z.url({ protocol: /^https?$/ }).max(2048), cms: z.enum(SITE_CMSES).default('custom') }).strict();
const RuleBody = z.object({ platform: z.enum(PLATFORMS), schedule_mode: z.enum(['draft', 'scheduled']).default('draft') }).strict();
const IdParams = z.object({ id: idParam });

/** A site with its rules and recent pushes, as its Site token's status shows them (posts and accounts). */
async function siteJson(ctx: MemberContext, s: SiteInfo) {
  const status = await ctx.clients.sitePushes.getSitePushStatus({ workspaceId: ctx.workspace.id, siteId: s.id });
  return {
    id: s.id,
    name: s.name,
    url: s.url,
    cms: s.cms,
    created_at: s.createdAt,
    last_push_at: status.lastPushAt ?? null,
    unmatched_pushes: status.unmatchedPushes,
    rules: status.rules.map((r) => ({ id: r.id, platform: r.platform, trigger: r.trigger, schedule_mode: r.scheduleMode, enabled: r.enabled })),
    recent_pushes: status.recentPushes.map((p) => ({ url: p.url, title: p.title, last_pushed_at: p.lastPushedAt, consumed_at: p.consumedAt ?? null })),
  };
}

const page = async (ctx: MemberContext) => {
  const { sites } = await ctx.clients.dashboard.listSites({ workspaceId: ctx.workspace.id });
  return { sites: await Promise.all(sites.map((s) => siteJson(ctx, s))), cms_options: SITE_CMSES, platforms: PLATFORMS };
};

/** Sites: connected sites, their rules and push activity; a new site's token is shown once. */
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
  {
    method: 'post',
    path: '/sites/:id/rules',
    status: 201,
    handle: async (ctx, req) => {
      const { id } = validate(IdParams, req.params, 'path parameters');
      const body = validate(RuleBody, req.body ?? undefined, 'request body');
      const { rule } = await ctx.clients.siteRules.createSiteRule({ workspaceId: ctx.workspace.id, siteId: id, platform: body.platform, scheduleMode: body.schedule_mode });
      return { rule_id: rule!.id, ...(await page(ctx)) };
    },
  },
  ...(['enable', 'disable'] as const).map((action): DashboardRoute => ({
    method: 'post',
    path: `/site-rules/:id/${action}`,
    handle: async (ctx, req) => {
      const { id } = validate(IdParams, req.params, 'path parameters');
      await ctx.clients.siteRules.setSiteRuleEnabled({ workspaceId: ctx.workspace.id, ruleId: id, enabled: action === 'enable' });
      return page(ctx);
    },
  })),
  {
    method: 'delete',
    path: '/site-rules/:id',
    handle: async (ctx, req) => {
      const { id } = validate(IdParams, req.params, 'path parameters');
      await ctx.clients.siteRules.deleteSiteRule({ workspaceId: ctx.workspace.id, ruleId: id });
      return page(ctx);
    },
  },
];
