import { AppError } from '@spa/errors';
import { LIVE_SUBSCRIPTION_STATUSES, PAID_TIERS, REVIEW_TIERS } from '@spa/vocabulary';
import type { Principal } from '../auth/authenticator.js';
import type { Route } from '../routes/route.js';

/** Applies a route's audience, scope and plan rules to an authenticated principal. */
export function authorize(route: Route, principal: Principal): void {
  if (route.audience === 'dashboard') {
    throw new AppError('ENDPOINT_NOT_AVAILABLE', 'This endpoint is available only in the dashboard, not to API keys or Site Connection tokens');
  }
  if (route.audience !== principal.kind) {
    throw new AppError(
      'ENDPOINT_NOT_AVAILABLE',
      principal.kind === 'site_token' ? 'A Site Connection token can call only the Site Push endpoints' : 'This endpoint needs a Site Connection token; personal API keys cannot call it',
    );
  }
  if (route.scope && !principal.scopes.has(route.scope)) {
    throw new AppError('INSUFFICIENT_SCOPE', `This API key lacks the required scope ${route.scope}`);
  }
  if (route.plan === 'any') return;
  if (route.plan === 'pro_team' && !REVIEW_TIERS.includes(principal.tier)) {
    throw new AppError('TIER_UPGRADE_REQUIRED', `This action needs the Pro or Team plan; this workspace is on ${principal.tier}`);
  }
  if (!PAID_TIERS.includes(principal.tier) || !LIVE_SUBSCRIPTION_STATUSES.includes(principal.subscriptionStatus)) {
    throw new AppError('NO_ACTIVE_SUBSCRIPTION', `This workspace has no active paid subscription (status: ${principal.subscriptionStatus})`);
  }
}
