import type { AccountsServiceClient } from '@spa/contracts/accounts/v1/accounts';
import type { PromiseClient } from '@spa/grpc';
import type { Platform } from '@spa/vocabulary';
import type { ActiveRule, SocialAccountRef, WorkspaceSource, WorkspaceStyle } from '../../domain/writing/ports.js';

/** WorkspaceSource over the accounts service (preferences, active custom rules, social accounts). */
export class GrpcWorkspaceSource implements WorkspaceSource {
  constructor(private readonly accounts: Pick<PromiseClient<AccountsServiceClient>, 'getPreferences' | 'listCustomRules' | 'listSocialAccounts'>) {}

  async style(workspaceId: number): Promise<WorkspaceStyle> {
    const { preferences: p } = await this.accounts.getPreferences({ workspaceId });
    return {
      tone: p?.tone ?? '',
      structure: p?.structure ?? '',
      includeEmoji: p?.includeEmoji ?? false,
      guidance: p?.customRules ?? '',
      aiModel: p?.aiModel ?? '',
    };
  }

  /** The workspace's `use_post_metrics_for_ai`: when on, its best-performing posts teach the voice profile. */
  async usesPostMetrics(workspaceId: number): Promise<boolean> {
    return (await this.accounts.getPreferences({ workspaceId })).preferences?.usePostMetricsForAi ?? false;
  }

  async activeRules(workspaceId: number): Promise<ActiveRule[]> {
    const { customRules } = await this.accounts.listCustomRules({ workspaceId, activeOnly: true });
    return customRules.filter((r) => r.active).map((r) => ({ content: r.content, scope: r.scope }));
  }

  async socialAccounts(workspaceId: number, ids: number[] = []): Promise<SocialAccountRef[]> {
    const { socialAccounts } = await this.accounts.listSocialAccounts({ workspaceId, ids });
    return socialAccounts.map((a) => ({ id: a.id, platform: a.platform as Platform, disconnected: a.disconnected }));
  }
}
