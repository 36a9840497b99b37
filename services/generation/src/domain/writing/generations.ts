import { AppError, invalidParameters } from '@spa/errors';
import type { Logger } from '@spa/logger';
import { CAPABILITIES } from '@spa/platforms';
import { PLATFORMS, type Platform } from '@spa/vocabulary';
import { renderCarouselPdf } from './carousel-pdf.js';
import type { Slide } from './brief.js';
import type { ObjectStore, QuotaGate, StoredObject, WorkspaceSource } from './ports.js';
import { batchAngles } from './angles.js';
import type { Writer } from './writer.js';

export const TOPIC_MAX = 500;
export const ANGLE_MAX = 200;
export const BATCH_MAX = 20;
export const THREAD_MIN = 2;
export const THREAD_MAX = 25;
export const SLIDES_MIN = 3;
export const SLIDES_MAX = 10;
export const SLIDES_DEFAULT = 6;
export const FROM_IDEA_DRAFTS = 3;
export const IDEMPOTENCY_KEY_MAX = 200;
/** Platforms that publish threads (capability `threads`): twitter, threads, bluesky, mastodon, discord. */
export const THREAD_PLATFORMS = PLATFORMS.filter((p) => CAPABILITIES[p].threads);

export interface GenerationsDeps {
  writer: Writer;
  quota: QuotaGate;
  workspaces: WorkspaceSource;
  objects: ObjectStore;
  logger: Pick<Logger, 'warn'>;
}

export interface CarouselResult {
  slides: Slide[];
  document: StoredObject & { pageCount: number; contentType: 'application/pdf' };
  caption: string;
  modelDegraded: boolean;
  socialAccountId: number;
}

/**
 * Writes a LinkedIn carousel and stores its PDF through media (one page per slide, shaped by LinkedIn's style
 * `image_aspect`): what POST /posts/generate_carousel answers and what content plan runs post as LinkedIn document
 * posts. Charges no quota (callers meter).
 */
export async function makeCarousel(
  deps: Pick<GenerationsDeps, 'writer' | 'objects'>,
  workspaceId: number,
  input: { topic: string; angle?: string | undefined; slides: number },
): Promise<Omit<CarouselResult, 'socialAccountId'>> {
  const topic = input.topic.trim();
  const carousel = await deps.writer.writeCarousel({ workspaceId, topic, angle: input.angle?.trim() || undefined, slides: input.slides });
  const pdf = await renderCarouselPdf(carousel.slides, { title: carousel.slides[0]?.title ?? topic, aspect: carousel.imageAspect });
  const stored = await deps.objects.store({ workspaceId, contentType: 'application/pdf', data: pdf, purpose: 'carousel' });
  return {
    slides: carousel.slides,
    document: { ...stored, pageCount: carousel.slides.length, contentType: 'application/pdf' as const },
    caption: carousel.caption,
    modelDegraded: carousel.degraded,
  };
}

/**
 * The generate use cases: validate, consume the daily quota (units = posts produced), write, and
 * give the units back when nothing was produced, so a failure never eats quota.
 */
export class Generations {
  constructor(private readonly deps: GenerationsDeps) {}

  async generate(workspaceId: number, input: { topic: string; platform: string; angle?: string }): Promise<{ body: string; modelDegraded: boolean; model: string }> {
    const platform = validate([text('topic', input.topic, TOPIC_MAX), optionalText('angle', input.angle, ANGLE_MAX)], input.platform);
    const [post] = await this.metered(workspaceId, 1, () => this.deps.writer.writePosts({ workspaceId, platform, topic: input.topic.trim(), angle: input.angle?.trim() || undefined, count: 1 }));
    return { body: post!.body, modelDegraded: post!.degraded, model: post!.model };
  }

  /** Three distinct drafts from one idea (one quota unit: the request produces one post to use). */
  async generateFromIdea(workspaceId: number, input: { idea: string; platform: string }): Promise<{ body: string; drafts: { body: string; modelDegraded: boolean }[]; modelDegraded: boolean }> {
    const platform = validate([text('idea', input.idea, TOPIC_MAX)], input.platform);
    const posts = await this.metered(workspaceId, 1, () =>
      this.deps.writer.writePosts({ workspaceId, platform, topic: input.idea.trim(), count: FROM_IDEA_DRAFTS }, [undefined, ...batchAngles(FROM_IDEA_DRAFTS - 1, Date.now())]),
    );
    const drafts = posts.map((p) => ({ body: p.body, modelDegraded: p.degraded }));
    return { body: drafts[0]!.body, drafts, modelDegraded: drafts[0]!.modelDegraded };
  }

  /**
   * `count` posts for a category. With an idempotency key (the caller's batch or job id) the quota is charged once
   * per key and local day: a retried batch whose first attempt was charged (its caller crashed before it recorded the
   * answer) is written again without a second charge.
   */
  async generateBatch(workspaceId: number, input: { category: string; count: number; platform: string; idempotencyKey?: string | undefined }): Promise<{ posts: string[]; degradedCount: number }> {
    const problems = [text('category', input.category, TOPIC_MAX), range('count', input.count, 1, BATCH_MAX)];
    if (input.idempotencyKey !== undefined && (!input.idempotencyKey || input.idempotencyKey.length > IDEMPOTENCY_KEY_MAX)) {
      problems.push(`idempotency_key must be 1 to ${IDEMPOTENCY_KEY_MAX} characters`);
    }
    const platform = validate(problems, input.platform);
    const result = await this.metered(workspaceId, input.count, () => this.deps.writer.write({ workspaceId, platform, topic: input.category.trim(), count: input.count }), input.idempotencyKey);
    return { posts: result.bodies, degradedCount: result.degradedCount };
  }

  async generateThread(workspaceId: number, input: { topic: string; tweetCount: number; platform: string }): Promise<{ tweets: string[]; modelDegraded: boolean }> {
    const problems = [text('topic', input.topic, TOPIC_MAX), range('tweet_count', input.tweetCount, THREAD_MIN, THREAD_MAX)];
    if ((PLATFORMS as readonly string[]).includes(input.platform) && !THREAD_PLATFORMS.includes(input.platform as Platform)) {
      problems.push(`platform ${input.platform} does not publish threads; use one of ${THREAD_PLATFORMS.join(', ')}`);
    }
    const platform = validate(problems, input.platform);
    const thread = await this.metered(workspaceId, 1, () => this.deps.writer.writeThread({ workspaceId, platform, topic: input.topic.trim(), parts: input.tweetCount }));
    return { tweets: thread.parts, modelDegraded: thread.degraded };
  }

  /** A LinkedIn carousel: slides, a rendered PDF (one page per slide, shaped by LinkedIn's style `image_aspect`, square by default) stored through media, and the caption. */
  async generateCarousel(workspaceId: number, input: { topic: string; slideCount?: number; angle?: string; socialAccountId?: number }): Promise<CarouselResult> {
    const slideCount = input.slideCount || SLIDES_DEFAULT;
    validate([text('topic', input.topic, TOPIC_MAX), optionalText('angle', input.angle, ANGLE_MAX), range('slide_count', slideCount, SLIDES_MIN, SLIDES_MAX)], 'linkedin');
    const socialAccountId = await this.linkedInAccount(workspaceId, input.socialAccountId);
    return this.metered(workspaceId, 1, async () => ({
      ...(await makeCarousel(this.deps, workspaceId, { topic: input.topic, angle: input.angle, slides: slideCount })),
      socialAccountId,
    }));
  }

  /** The given LinkedIn account (it must be the workspace's, LinkedIn, connected) or the first connected one. */
  private async linkedInAccount(workspaceId: number, wanted: number | undefined): Promise<number> {
    if (wanted !== undefined) {
      const [account] = await this.deps.workspaces.socialAccounts(workspaceId, [wanted]);
      if (!account || account.platform !== 'linkedin') throw invalidParameters([`social_account_id ${wanted} is not a LinkedIn account of this workspace`]);
      if (account.disconnected) throw new AppError('INVALID_STATE', `LinkedIn account ${wanted} is disconnected; reconnect it to generate a carousel`);
      return account.id;
    }
    const accounts = await this.deps.workspaces.socialAccounts(workspaceId);
    const linkedIn = accounts.find((a) => a.platform === 'linkedin' && !a.disconnected);
    if (!linkedIn) throw new AppError('INVALID_STATE', 'A carousel needs a connected LinkedIn account; this workspace has none');
    return linkedIn.id;
  }

  private async metered<T>(workspaceId: number, units: number, work: () => Promise<T>, idempotencyKey?: string): Promise<T> {
    await this.deps.quota.consume(workspaceId, units, idempotencyKey);
    try {
      return await work();
    } catch (err) {
      // Give the units back; a failed refund must not hide why the generation failed.
      const giveBack = idempotencyKey === undefined ? this.deps.quota.refund(workspaceId, units) : this.deps.quota.releaseKey(workspaceId, idempotencyKey);
      await giveBack.catch((refundErr: unknown) => this.deps.logger.warn({ err: refundErr, workspaceId, units }, 'quota refund failed'));
      throw err;
    }
  }
}

function text(field: string, value: string, max: number): string | undefined {
  const length = [...(value ?? '').trim()].length;
  if (length === 0) return `${field} is required`;
  if (length > max) return `${field} is ${length} characters; the limit is ${max}`;
  return undefined;
}

function optionalText(field: string, value: string | undefined, max: number): string | undefined {
  return value !== undefined && [...value.trim()].length > max ? `${field} is ${[...value.trim()].length} characters; the limit is ${max}` : undefined;
}

function range(field: string, value: number, min: number, max: number): string | undefined {
  return Number.isInteger(value) && value >= min && value <= max ? undefined : `${field} must be an integer from ${min} to ${max}`;
}

/** Throws one INVALID_PARAMETERS naming every bad field; returns the platform. */
function validate(problems: (string | undefined)[], platform: string): Platform {
  const all = problems.filter((p): p is string => p !== undefined);
  if (!(PLATFORMS as readonly string[]).includes(platform)) all.unshift(`platform must be one of ${PLATFORMS.join(', ')}`);
  if (all.length > 0) throw invalidParameters(all);
  return platform as Platform;
}
