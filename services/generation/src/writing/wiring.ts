import { generations as generationsMetric } from '@spa/telemetry';
import type { AccountsServiceClient } from '@spa/contracts/accounts/v1/accounts';
import type { MediaServiceClient } from '@spa/contracts/media/v1/media';
import type { PostsServiceClient } from '@spa/contracts/posts/v1/posts';
import type { PromiseClient, ServiceBinding } from '@spa/grpc';
import type { Logger } from '@spa/logger';
import type { Connection } from '@spa/mongo';
import type { GenerationConfig } from '../config.js';
import { generationService } from '../grpc/generation-handlers.js';
import { BuiltinComposer } from '../providers/builtin/composer.js';
import type { ModelCatalog } from '../providers/catalog.js';
import { OpenAiCompatibleProvider } from '../providers/openai-compatible.js';
import { MongoVoiceProfileStore } from '../voice/profile-store.js';
import { VoiceProfiles } from '../voice/voice-profiles.js';
import { GrpcWorkspaceSource } from './backends/accounts.js';
import { GrpcObjectStore } from './backends/media.js';
import { GrpcPostHistory } from './backends/posts.js';
import type { WritingModel } from './brief.js';
import { Generations } from './generations.js';
import type { QuotaGate } from './ports.js';
import { RemoteWritingModel } from './remote-model.js';
import { Writer } from './writer.js';

/** The writing part of the process: models, voice profiles, the Writer (for plan runs too) and the GenerationService. */
export function createWriting(opts: {
  config: Pick<GenerationConfig, 'AI_BASE_URL' | 'AI_API_KEY' | 'AI_TIMEOUT_MS' | 'AI_FALLBACK_BUILTIN' | 'GENERATION_BUDGET_MS' | 'VOICE_PROFILE_MAX_AGE_MS'>;
  catalog: ModelCatalog;
  connection: Connection;
  accounts: PromiseClient<AccountsServiceClient>;
  posts: PromiseClient<PostsServiceClient>;
  media: PromiseClient<MediaServiceClient>;
  quota: QuotaGate;
  logger: Logger;
}): { writer: Writer; service: ServiceBinding } {
  const { config, catalog } = opts;
  const models = new Map<string, WritingModel>();
  const composer = new BuiltinComposer();
  models.set(composer.model.id, composer);
  if (config.AI_BASE_URL) {
    const provider = new OpenAiCompatibleProvider({ baseUrl: config.AI_BASE_URL, apiKey: config.AI_API_KEY, timeoutMs: config.AI_TIMEOUT_MS });
    for (const model of catalog.remoteModels()) models.set(model.id, new RemoteWritingModel(model, provider));
  }
  const workspaces = new GrpcWorkspaceSource(opts.accounts);
  const history = new GrpcPostHistory(opts.posts, async (workspaceId) => (await opts.accounts.getPreferences({ workspaceId })).preferences?.usePostMetricsForAi ?? false);
  const voice = new VoiceProfiles({ store: new MongoVoiceProfileStore(opts.connection), history, maxAgeMs: config.VOICE_PROFILE_MAX_AGE_MS });
  const writer = new Writer({
    catalog,
    models,
    builtinFallback: config.AI_FALLBACK_BUILTIN,
    workspaces,
    history,
    voice,
    timeoutMs: config.AI_TIMEOUT_MS,
    budgetMs: config.GENERATION_BUDGET_MS,
    logger: opts.logger,
    onProduced: (model, degraded) => generationsMetric.inc({ provider: model.builtin ? 'builtin' : 'openai-compatible', degraded: String(degraded) }),
  });
  const generations = new Generations({ writer, quota: opts.quota, workspaces, objects: new GrpcObjectStore(opts.media), logger: opts.logger });
  return { writer, service: generationService({ generations, voice }) };
}
