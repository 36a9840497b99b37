import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { AccountsServiceClient } from '@spa/contracts/accounts/v1/accounts';
import type { PlatformStylesServiceClient } from '@spa/contracts/accounts/v1/platform_styles';
import type { ImageWeekServiceClient } from '@spa/contracts/image_week/v1/image_week';
import type { MediaServiceClient } from '@spa/contracts/media/v1/media';
import type { PostsServiceClient } from '@spa/contracts/posts/v1/posts';
import type { PromiseClient, ServiceBinding } from '@spa/grpc';
import type { Logger } from '@spa/logger';
import type { Connection } from '@spa/mongo';
import { generations as generationsMetric } from '@spa/telemetry';
import type { GenerationConfig } from './config.js';
import { MongoIdeasStore } from './data/ideas/mongo-store.js';
import { MongoPlansStore } from './data/plans/mongo-store.js';
import { MongoQuotaClaims } from './data/quota/mongo-claims.js';
import { MongoVoiceProfileStore } from './data/voice/profile-store.js';
import { BuiltinComposer } from './domain/composer/composer.js';
import { ModelCatalog, parseModelEntry } from './domain/models/catalog.js';
import type { PlansDeps } from './domain/plans/ports.js';
import { PlanRunner } from './domain/plans/runner.js';
import { PlanScheduler } from './domain/plans/scheduler.js';
import { DailyQuota } from './domain/quota/daily-quota.js';
import { VoiceProfiles } from './domain/voice/voice-profiles.js';
import type { WritingModel } from './domain/writing/brief.js';
import { Generations, makeCarousel, SLIDES_DEFAULT } from './domain/writing/generations.js';
import { RemoteWritingModel } from './domain/writing/remote-model.js';
import { Writer } from './domain/writing/writer.js';
import { GrpcSubscriptions } from './grpc/clients/subscriptions.js';
import { GrpcObjectStore } from './grpc/clients/object-store.js';
import { accountsPort, postsPort, quoteWeekPort } from './grpc/clients/plans-ports.js';
import { GrpcPlatformStyles } from './grpc/clients/platform-styles.js';
import { GrpcPostHistory } from './grpc/clients/post-history.js';
import { AccountsWorkspacePlans } from './grpc/clients/workspace-plans.js';
import { GrpcWorkspaceSource } from './grpc/clients/workspace-source.js';
import { generationService } from './grpc/generation-handlers.js';
import { contentPlansService } from './grpc/plans-handlers.js';
import { settingsService } from './grpc/settings-handlers.js';
import { OpenAiCompatibleProvider } from './providers/openai-compatible.js';

/** The other services this one calls. */
export interface Peers {
  accounts: PromiseClient<AccountsServiceClient>;
  /** accounts' PlatformStylesService (same process and address as `accounts`). */
  platformStyles: PromiseClient<PlatformStylesServiceClient>;
  posts: PromiseClient<PostsServiceClient>;
  media: PromiseClient<MediaServiceClient>;
  /** image-week: content plans' quote_card channels start Quote Week runs. */
  imageWeek: PromiseClient<ImageWeekServiceClient>;
}

/** What the process serves and runs once composed. */
export interface Composed {
  catalog: ModelCatalog;
  services: ServiceBinding[];
  /** Starts this replica's plan scheduler (due plans, takeovers of dead owners' runs). */
  start(): void;
  /** Stops the scheduler and waits for the runs under way (an unfinished one is resumed elsewhere). */
  stop(): Promise<void>;
}

/** The models this deployment offers: AI_MODELS on the OpenAI-compatible AI_BASE_URL, then the built-in composer. */
export function modelCatalogFromConfig(config: Pick<GenerationConfig, 'AI_BASE_URL' | 'AI_MODELS'>): ModelCatalog {
  const entries = config.AI_MODELS.split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length > 0 && !config.AI_BASE_URL) throw new Error('AI_MODELS is set but AI_BASE_URL is not');
  return new ModelCatalog(config.AI_BASE_URL ? entries.map(parseModelEntry) : []);
}

/**
 * The whole object graph of the generation service, in one place: the stores (data/), the clients of the
 * other services (grpc/clients/), the use cases (domain/) and the gRPC services over them (grpc/).
 * Registers the mongoose models, so call it before syncIndexes.
 */
export function compose(config: GenerationConfig, connection: Connection, peers: Peers, logger: Logger): Composed {
  const clock = { now: () => new Date() };
  const catalog = modelCatalogFromConfig(config);

  const quota = new DailyQuota({
    store: new MongoQuotaClaims(connection),
    plans: new AccountsWorkspacePlans(peers.accounts),
    limits: config.DAILY_GENERATION_LIMITS,
    clock,
    onBackgroundError: (err) => logger.warn({ err }, 'purging old quota claims failed'),
  });

  const models = new Map<string, WritingModel>();
  const composer = new BuiltinComposer();
  models.set(composer.model.id, composer);
  if (config.AI_BASE_URL) {
    const provider = new OpenAiCompatibleProvider({ baseUrl: config.AI_BASE_URL, apiKey: config.AI_API_KEY, timeoutMs: config.AI_TIMEOUT_MS });
    for (const model of catalog.remoteModels()) models.set(model.id, new RemoteWritingModel(model, provider));
  }
  const workspaces = new GrpcWorkspaceSource(peers.accounts);
  const history = new GrpcPostHistory(peers.posts, (workspaceId) => workspaces.usesPostMetrics(workspaceId));
  const voice = new VoiceProfiles({ store: new MongoVoiceProfileStore(connection), history, maxAgeMs: config.VOICE_PROFILE_MAX_AGE_MS });
  const writer = new Writer({
    catalog,
    models,
    builtinFallback: config.AI_FALLBACK_BUILTIN,
    workspaces,
    styles: new GrpcPlatformStyles(peers.platformStyles),
    history,
    voice,
    timeoutMs: config.AI_TIMEOUT_MS,
    budgetMs: config.GENERATION_BUDGET_MS,
    logger,
    onProduced: (model, degraded) => generationsMetric.inc({ provider: model.builtin ? 'builtin' : 'openai-compatible', degraded: String(degraded) }),
  });
  const objects = new GrpcObjectStore(peers.media);
  const generations = new Generations({ writer, quota, workspaces, objects, logger });

  const plans: PlansDeps = {
    store: new MongoPlansStore(connection),
    ideas: new MongoIdeasStore(connection),
    accounts: accountsPort(peers.accounts),
    posts: postsPort(peers.posts),
    writer,
    carousels: {
      make: async (req) => {
        const made = await makeCarousel({ writer, objects }, req.workspaceId, { topic: req.topic, angle: req.angle, slides: SLIDES_DEFAULT });
        return { caption: made.caption, document: { r2Key: made.document.r2Key, url: made.document.url, pageCount: made.document.pageCount } };
      },
    },
    quoteWeek: quoteWeekPort(peers.imageWeek),
    clock,
    newId: randomUUID,
    instanceId: `${hostname()}:${process.pid}`,
    leaseMs: config.PLANS_RUN_LEASE_MS,
  };
  const runner = new PlanRunner(plans, logger);
  const scheduler = new PlanScheduler(plans, runner, logger);

  return {
    catalog,
    services: [
      generationService({ generations, voice }),
      settingsService({ subscriptions: new GrpcSubscriptions(peers.accounts), models: catalog, quota, clock }),
      contentPlansService(plans, (run) => runner.launch(run)),
    ],
    start: () => scheduler.start(config.PLANS_POLL_INTERVAL_MS),
    stop: async () => {
      await scheduler.stop();
      await runner.stop();
    },
  };
}
