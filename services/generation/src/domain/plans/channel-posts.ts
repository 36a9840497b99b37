import type { Channel, PlanRun, RunItem } from './model.js';
import type { PlansDeps } from './ports.js';
import { decidesItem, RunOwnershipLost, topicOf } from './run-common.js';
import { channelPostOptions } from './validate-plan.js';

/** Post n of a channel takes the angles in turn. */
export const angleOf = (c: Channel, n: number): string | undefined => (c.angles.length ? c.angles[n % c.angles.length] : undefined);

/** Whether post n (0-based) of a channel's run is a carousel: posts k, 2k, … (1-based) with k = carousel_every_n. */
export const isCarousel = (c: Channel, n: number): boolean => !!c.carouselEveryN && (n + 1) % c.carouselEveryN === 0;

/**
 * Writes the channel's `posts_per_day` posts of the run and stores them through the posts service: text posts
 * written per angle in batches, and every `carousel_every_n`-th post (LinkedIn) a carousel whose PDF is stored
 * through media and posted as a document post. Resumable: every post is recorded (body, and the carousel's
 * document) before it is created and given its post id after, so a later attempt skips what is done and, for a post
 * whose creation was interrupted, first looks for it in the posts service.
 */
export async function writeChannelPosts(deps: PlansDeps, run: PlanRun, ci: number, channel: Channel, signal: AbortSignal): Promise<void> {
  const items = new Map((await deps.store.runItems(run.id, ci)).map((i) => [i.n, i]));
  const checkOwned = () => {
    if (signal.aborted) throw new RunOwnershipLost(run.id);
  };
  // Interrupted by a dead owner: recorded with a body, not known to be created.
  for (const item of items.values()) {
    if (item.body !== undefined && item.postId === undefined && item.error === undefined) await storePost(deps, run, ci, channel, item, true);
  }
  const byAngle = new Map<string | undefined, number[]>();
  const carousels: number[] = [];
  for (let n = 0; n < channel.postsPerDay; n++) {
    if (items.has(n)) continue;
    if (isCarousel(channel, n)) carousels.push(n);
    else byAngle.set(angleOf(channel, n), [...(byAngle.get(angleOf(channel, n)) ?? []), n]);
  }
  const record = async (item: RunItem) => {
    checkOwned();
    if (!(await deps.store.insertItem(item))) throw new RunOwnershipLost(run.id);
    if (item.body !== undefined) await storePost(deps, run, ci, channel, item, false);
  };
  const failed = (n: number, error: string): RunItem => ({ runId: run.id, channelIndex: ci, n, error, createdAt: deps.clock.now() });

  for (const [angle, missing] of byAngle) {
    checkOwned();
    let bodies: string[];
    try {
      ({ bodies } = await deps.writer.write({ workspaceId: run.workspaceId, platform: channel.platform, topic: topicOf(run.snapshot, channel), ...(angle ? { angle } : {}), count: missing.length }));
    } catch (err) {
      if (!decidesItem(err)) throw err;
      for (const n of missing) await deps.store.insertItem(failed(n, err.message));
      continue;
    }
    for (const [k, n] of missing.entries()) {
      const body = bodies[k];
      await record(body === undefined ? failed(n, 'the writer produced fewer posts than asked') : { runId: run.id, channelIndex: ci, n, body, createdAt: deps.clock.now() });
    }
  }
  for (const n of carousels) {
    checkOwned();
    let item: RunItem;
    try {
      const made = await deps.carousels.make({ workspaceId: run.workspaceId, topic: topicOf(run.snapshot, channel), angle: angleOf(channel, n) });
      item = { runId: run.id, channelIndex: ci, n, body: made.caption, carousel: made.document, createdAt: deps.clock.now() };
    } catch (err) {
      if (!decidesItem(err)) throw err;
      item = failed(n, `carousel: ${err.message}`);
    }
    await record(item);
  }
}

async function storePost(deps: PlansDeps, run: PlanRun, ci: number, channel: Channel, item: RunItem, recovering: boolean): Promise<void> {
  const body = item.body as string;
  if (recovering) {
    const found = await deps.posts.findPlanPost(run.workspaceId, channel.platform, channel.socialAccountId, body, item.createdAt);
    if (found !== null) return deps.store.updateItem(run.id, ci, item.n, { postId: found });
  }
  try {
    const scheduledAt = run.snapshot.scheduleMode === 'scheduled' ? await deps.posts.nextSlot(run.workspaceId, channel.socialAccountId) : null;
    const postId = await deps.posts.createPost({
      workspaceId: run.workspaceId,
      body,
      platform: channel.platform,
      socialAccountId: channel.socialAccountId,
      options: channelPostOptions(run.snapshot.platformConfigs, channel),
      scheduledAt: scheduledAt ?? undefined,
      dryRun: run.snapshot.dryRun ?? false,
      carousel: item.carousel,
    });
    await deps.store.updateItem(run.id, ci, item.n, { postId });
  } catch (err) {
    if (!decidesItem(err)) throw err;
    await deps.store.updateItem(run.id, ci, item.n, { error: err.message });
  }
}
