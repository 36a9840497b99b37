import type { AccountsServiceClient, Preferences as PreferencesMessage } from '@spa/contracts/accounts/v1/accounts';
import { AppError, invalidParameters } from '@spa/errors';
import type { PromiseClient } from '@spa/grpc';
import { TIERS, type Tier } from '@spa/vocabulary';
import type { PreferencesPatch, StoredPreferences, Subscription } from '../../domain/settings/model.js';
import type { AccountsSettings } from '../../domain/settings/ports.js';

type AccountsClient = Pick<PromiseClient<AccountsServiceClient>, 'getPreferences' | 'updatePreferences' | 'getSubscription'>;

function toPreferences(p: PreferencesMessage | undefined): StoredPreferences {
  if (!p) throw new AppError('INTERNAL_ERROR', 'accounts answered without preferences');
  const n = p.emailNotifications;
  return {
    tone: p.tone,
    includeEmoji: p.includeEmoji,
    structure: p.structure,
    customRules: p.customRules,
    timezone: p.timezone,
    usePostMetricsForAi: p.usePostMetricsForAi,
    theme: p.theme,
    aiModel: p.aiModel,
    emailNotifications: {
      postFailure: n?.postFailure ?? true,
      weeklyBriefing: n?.weeklyBriefing ?? true,
      productTips: n?.productTips ?? true,
      reEngagement: n?.reEngagement ?? true,
    },
  };
}

/** Preferences and subscriptions as the accounts service keeps them. */
export class GrpcAccountsSettings implements AccountsSettings {
  constructor(private readonly accounts: AccountsClient) {}

  async getPreferences(workspaceId: number): Promise<StoredPreferences> {
    return toPreferences((await this.accounts.getPreferences({ workspaceId })).preferences);
  }

  async updatePreferences(workspaceId: number, patch: PreferencesPatch): Promise<StoredPreferences> {
    try {
      const { preferences } = await this.accounts.updatePreferences({ workspaceId, ...patch });
      return toPreferences(preferences);
    } catch (err) {
      // Accounts names its fields bare (`timezone: …`); the public field is `preferences.timezone`.
      if (err instanceof AppError && err.code === 'INVALID_PARAMETERS' && err.details?.length) {
        throw invalidParameters(err.details.map((d) => (d.startsWith('preferences.') ? d : `preferences.${d}`)));
      }
      throw err;
    }
  }

  async getSubscription(workspaceId: number): Promise<Subscription> {
    const { subscription: s } = await this.accounts.getSubscription({ workspaceId });
    if (!s) throw new AppError('INTERNAL_ERROR', 'accounts answered without a subscription');
    const end = s.currentPeriodEnd ? new Date(s.currentPeriodEnd) : undefined;
    return {
      id: s.id,
      tier: TIERS.includes(s.tier as Tier) ? (s.tier as Tier) : 'free',
      status: s.status,
      currentPeriodEnd: end && !Number.isNaN(end.getTime()) ? end : undefined,
      cancelAtPeriodEnd: s.cancelAtPeriodEnd,
      maxScheduleDays: s.maxScheduleDays,
    };
  }
}
