import { SettingsServiceService, type AiModelOption } from '@spa/contracts/generation/v1/settings';
import { AppError } from '@spa/errors';
import { bindService, type ServiceBinding } from '@spa/grpc';
import { resolveAiModel } from '../domain/settings/ai-model.js';
import { getBillingSummary } from '../domain/settings/billing-summary.js';
import type { AiModel } from '../domain/settings/model.js';
import type { SettingsDeps } from '../domain/settings/ports.js';
import { positiveId } from './request-ids.js';

const modelOption = (m: AiModel): AiModelOption => ({ id: m.id, label: m.label, premium: m.premium, typicalCostMicros: m.typicalCostMicros, builtin: m.builtin });

/** The preferences RPCs this service used to front: accounts.v1.AccountsService owns preferences alone now. */
const retired = (rpc: string) => async (): Promise<never> => {
  throw new AppError('ENDPOINT_NOT_AVAILABLE', `generation.v1.SettingsService.${rpc} is retired: preferences are accounts.v1.AccountsService's; ResolveAiModel checks ai_model`);
};

/** gRPC transport of what this service owns of the settings: the model catalogue and the billing summary. */
export function settingsService(deps: SettingsDeps): ServiceBinding {
  return bindService('generation.v1.SettingsService', SettingsServiceService, {
    getPreferences: retired('GetPreferences'),
    updatePreferences: retired('UpdatePreferences'),
    resolveAiModel: async (req) => {
      const choice = resolveAiModel(deps.models, req.aiModel);
      return { availableAiModels: choice.availableAiModels.map(modelOption), effectiveAiModel: choice.effectiveAiModel, aiModelProblem: choice.aiModelProblem };
    },
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
