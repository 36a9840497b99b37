import { ImageWeekServiceService, type ImageWeekItem, type ImageWeekRun } from '@spa/contracts/image_week/v1/image_week';
import { invalidParameters } from '@spa/errors';
import { bindService, type ServiceBinding } from '@spa/grpc';
import type { ItemRecord, RunView } from '../domain/model.js';
import type { ImageWeekDeps } from '../domain/ports.js';
import { runQuota } from '../domain/monthly-quota.js';
import { cancelRun, createRun, getRun, listRuns, regenerateItem } from '../domain/runs.js';

const iso = (d: Date | undefined) => d?.toISOString();

export function itemMessage(i: ItemRecord): ImageWeekItem {
  return {
    id: i.id,
    platform: i.platform,
    socialAccountId: i.socialAccountId,
    status: i.status,
    attemptCount: i.attemptCount,
    quote: i.quote,
    image: i.image,
    postId: i.postId,
    scheduledAt: iso(i.scheduledAt),
    watermarked: i.watermarked,
    lastError: i.lastError,
    position: i.position,
    template: i.template,
  };
}

export function runMessage(r: RunView): ImageWeekRun {
  return {
    id: r.id,
    status: r.status,
    contentPlanId: r.contentPlanId,
    scheduleMode: r.scheduleMode,
    topic: r.topic,
    pack: r.pack,
    platformConfigJson: JSON.stringify(r.platformConfig),
    cutoffDays: r.cutoffDays,
    watermarkEnabled: r.watermarkEnabled,
    watermarkText: r.watermarkText,
    watermarkEveryN: r.watermarkEveryN,
    dryRun: r.dryRun,
    templateVersion: r.templateVersion,
    totalItems: r.totalItems,
    completedItems: r.completedItems,
    failedItems: r.failedItems,
    canceledItems: r.canceledItems,
    shortfallReason: r.shortfallReason,
    errorMessage: r.errorMessage,
    imagesGenerated: r.imagesGenerated,
    retryCount: r.retryCount,
    garbleCount: r.garbleCount,
    estCostCents: r.estCostCents,
    durationMs: r.durationMs,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    finishedAt: iso(r.finishedAt),
    items: (r.items ?? []).map(itemMessage),
  };
}

function parseJson(json: string, field: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    throw invalidParameters([`${field} must be a JSON object`]);
  }
}

/** gRPC transport of the image-week service; the domain checks every field again (callers are not only the gateway). */
export function imageWeekService(deps: ImageWeekDeps): ServiceBinding {
  return bindService('image_week.v1.ImageWeekService', ImageWeekServiceService, {
    createRun: async (req) => {
      const run = await createRun(deps, req.workspaceId, {
        topic: req.topic,
        idempotencyKey: req.idempotencyKey,
        platformConfig: parseJson(req.platformConfigJson || '{}', 'platform_config'),
        cutoffDays: req.cutoffDays || undefined,
        scheduleMode: req.scheduleMode || undefined,
        watermarkEnabled: req.watermarkEnabled,
        watermarkText: req.watermarkText,
        watermarkEveryN: req.watermarkEveryN,
        dryRun: req.dryRun,
        contentPlanId: req.contentPlanId,
        pack: req.pack,
      });
      return { imageWeekRun: runMessage(run) };
    },
    listRuns: async (req) => {
      const limit = Math.min(Math.max(req.limit || 20, 1), 100);
      const offset = Math.max(req.offset, 0);
      const { runs, totalCount } = await listRuns(deps, req.workspaceId, { limit, offset, status: req.status });
      return { imageWeekRuns: runs.map(runMessage), limit, offset, totalCount };
    },
    getRunQuota: async (req) => runQuota(deps, req.workspaceId, deps.clock.now()),
    getRun: async (req) => ({ imageWeekRun: runMessage(await getRun(deps, req.workspaceId, req.runId)) }),
    cancelRun: async (req) => ({ imageWeekRun: runMessage(await cancelRun(deps, req.workspaceId, req.runId)) }),
    regenerateItem: async (req) => {
      const { run, item } = await regenerateItem(deps, req.workspaceId, req.runId, req.itemId);
      return { imageWeekRun: runMessage(run), item: itemMessage(item) };
    },
  });
}
