import { SettingsServiceService, type Preferences as PreferencesMessage } from '@spa/contracts/generation/v1/settings';
import { bindService, type ServiceBinding } from '@spa/grpc';
import { getBillingSummary } from '../domain/settings/billing-summary.js';
import { positiveId } from './request-ids.js';
import type { Preferences } from '../domain/settings/model.js';
import type { SettingsDeps } from '../domain/settings/ports.js';
import { getPreferences, updatePreferences } from '../domain/settings/preferences.js';

function preferencesMessage(p: Preferences): PreferencesMessage {
  return {
    tone: p.tone,
    includeEmoji: p.includeEmoji,
    structure: p.structure,
    customRules: p.customRules,
    timezone: p.timezone,
    usePostMetricsForAi: p.usePostMetricsForAi,
    theme: p.theme,
    aiModel: p.aiModel,
    availableAiModels: p.availableAiModels.map((m) => ({
      id: m.id,
      label: m.label,
      premium: m.premium,
      typicalCostMicros: m.typicalCostMicros,
      builtin: m.builtin,
    })),
    emailNotifications: p.emailNotifications,
  };
}

/** gRPC transport of the settings: preferences (fronting accounts) and the billing summary. */
export function settingsService(deps: SettingsDeps): ServiceBinding {
  return bindService('generation.v1.SettingsService', SettingsServiceService, {
    getPreferences: async (req) => ({ preferences: preferencesMessage(await getPreferences(deps, positiveId(req.workspaceId, 'workspace_id'))) }),
    updatePreferences: async ({ workspaceId, emailNotifications, ...fields }) => ({
      preferences: preferencesMessage(await updatePreferences(deps, positiveId(workspaceId, 'workspace_id'), { ...fields, emailNotifications })),
    }),
    getBillingSummary: async (req) => {
      const summary = await getBillingSummary(deps, positiveId(req.workspaceId, 'workspace_id'));
      const s = summary.subscription;
      return {
        subscription: {
          id: s.id,
          status: s.status,
          currentPeriodEnd: s.currentPeriodEnd?.toISOString() ?? '',
          cancelAtPeriodEnd: s.cancelAtPeriodEnd,
          daysUntilRenewal: s.daysUntilRenewal,
        },
        tier: summary.tier,
        quota: summary.quota,
        maxScheduleDays: summary.maxScheduleDays,
      };
    },
  });
}
