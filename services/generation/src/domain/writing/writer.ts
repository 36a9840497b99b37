import type { AiModel } from '../models/catalog.js';
import { randomInt } from 'node:crypto';
import type { Logger } from '@spa/logger';
import type { ImageAspect, PlatformStyle } from '@spa/platforms';
import type { Platform } from '@spa/vocabulary';
import type { ModelCatalog } from '../models/catalog.js';
import { accept } from './acceptance.js';
import type { Slide, Style, WritingBrief, WritingKind, WritingModel } from './brief.js';
import { FallbackChain } from './fallback-chain.js';
import { hardLimit } from './limits.js';
import { DuplicateGuard } from './near-duplicates.js';
import type { PlatformStyles, PostHistory, VoiceSource, WorkspaceSource } from './ports.js';
import { parseRules, type RuleSet } from './rules.js';
import type { VoiceProfile } from '../voice/voice-profile.js';
import { batchAngles } from './angles.js';

/** One request for `count` distinct post bodies on one platform (used by the generate endpoints and plan runs). */
export interface WriteRequest {
  workspaceId: number;
  platform: Platform;
  topic: string;
  angle?: string;
  count: number;
}

export interface WriteResult {
  bodies: string[];
  /** How many of `bodies` came from a model other than the preferred one because it failed. */
  degradedCount: number;
  /** The model that produced the first body. */
  model: string;
}

export interface WrittenPost {
  body: string;
  model: string;
  degraded: boolean;
}

export interface WriterDeps {
  catalog: ModelCatalog;
  /** Every model of the catalog by id. */
  models: ReadonlyMap<string, WritingModel>;
  /** Whether the built-in composer is the last resort after the configured models (AI_FALLBACK_BUILTIN). */
  builtinFallback: boolean;
  workspaces: WorkspaceSource;
  /** The workspace's style per platform (read once per request). */
  styles: PlatformStyles;
  history: PostHistory;
  voice: VoiceSource;
  timeoutMs: number;
  /** How long one request may spend on remote models before the rest goes to the composer. */
  budgetMs: number;
  logger: Logger;
  /** Told of every accepted output (metrics); optional. */
  onProduced?: (model: AiModel, degraded: boolean) => void;
  /** Seed source (random by default: every request differs). */
  seed?: () => number;
}

/** How many of the workspace's latest posts new posts must not resemble. */
export const RECENT_POSTS_CHECKED = 50;
/** Items of one request written at the same time. */
const CONCURRENCY = 4;
/** Custom-rule scopes that apply to each kind of writing. */
const RULE_SCOPES: Record<WritingKind, readonly string[]> = { post: ['all', 'post'], thread: ['all', 'thread'], carousel: ['all', 'carousel'] };

interface Context {
  chain: FallbackChain;
  style: Style;
  platformStyle: PlatformStyle;
  voice: VoiceProfile;
  rules: RuleSet;
  guard: DuplicateGuard;
  recent: string[];
}

/**
 * Writes post bodies, threads and carousels: workspace preferences, the platform's style, active custom
 * rules and voice profile → fallback chain of models → limit, rule and near-duplicate checks. No quota inside
 * (callers consume it).
 */
export class Writer {
  private readonly seed: () => number;

  constructor(private readonly deps: WriterDeps) {
    this.seed = deps.seed ?? (() => randomInt(2 ** 31));
  }

  async write(req: WriteRequest): Promise<WriteResult> {
    const posts = await this.writePosts(req, req.angle || req.count === 1 ? [] : batchAngles(req.count, this.seed()));
    return { bodies: posts.map((p) => p.body), degradedCount: posts.filter((p) => p.degraded).length, model: posts[0]?.model ?? '' };
  }

  /**
   * `count` posts, none a near-duplicate of another or of the workspace's last 50 posts. Without an
   * angle and with several posts, each post takes a different angle from the composer's list (remote
   * models get the same hint), which keeps a batch varied.
   */
  async writePosts(req: WriteRequest, angles: readonly (string | undefined)[] = []): Promise<WrittenPost[]> {
    const ctx = await this.context(req.workspaceId, 'post', req.platform);
    const base = this.seed();
    const out: WrittenPost[] = new Array(req.count);
    let next = 0;
    const worker = async () => {
      while (next < req.count) {
        const i = next++;
        const angle = angles[i] ?? req.angle;
        const produced = await ctx.chain.produce(
          (seed) => this.brief(ctx, { kind: 'post', platform: req.platform, topic: req.topic, angle, seed }),
          (written) => {
            const verdict = accept(this.brief(ctx, { kind: 'post', platform: req.platform, topic: req.topic, angle, seed: 0 }), written, ctx.guard);
            if (verdict.ok && verdict.written.kind === 'post') ctx.guard.remember(verdict.written.body);
            return verdict;
          },
          base + i * 31,
        );
        if (produced.written.kind !== 'post') throw new Error('a post brief produced another kind');
        out[i] = { body: produced.written.body, model: produced.model.id, degraded: produced.degraded };
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, req.count) }, worker));
    return out;
  }

  async writeThread(req: { workspaceId: number; platform: Platform; topic: string; parts: number }): Promise<{ parts: string[]; model: string; degraded: boolean }> {
    const ctx = await this.context(req.workspaceId, 'thread', req.platform);
    const briefFor = (seed: number) => this.brief(ctx, { kind: 'thread', platform: req.platform, topic: req.topic, seed, parts: req.parts });
    const produced = await ctx.chain.produce(briefFor, (written) => accept(briefFor(0), written, ctx.guard), this.seed());
    if (produced.written.kind !== 'thread') throw new Error('a thread brief produced another kind');
    return { parts: produced.written.parts, model: produced.model.id, degraded: produced.degraded };
  }

  /** A LinkedIn carousel; `imageAspect` is the LinkedIn style's, the shape its pages are rendered in. */
  async writeCarousel(req: {
    workspaceId: number;
    topic: string;
    angle?: string;
    slides: number;
  }): Promise<{ caption: string; slides: Slide[]; model: string; degraded: boolean; imageAspect: ImageAspect }> {
    const ctx = await this.context(req.workspaceId, 'carousel', 'linkedin');
    const briefFor = (seed: number) => this.brief(ctx, { kind: 'carousel', platform: 'linkedin', topic: req.topic, angle: req.angle, seed, slides: req.slides });
    const produced = await ctx.chain.produce(briefFor, (written) => accept(briefFor(0), written, ctx.guard), this.seed());
    if (produced.written.kind !== 'carousel') throw new Error('a carousel brief produced another kind');
    return { caption: produced.written.caption, slides: produced.written.slides, model: produced.model.id, degraded: produced.degraded, imageAspect: ctx.platformStyle.imageAspect };
  }

  /** The models of a request: preferred (workspace `ai_model` if known, else the default), the other configured models, the composer last. */
  modelsFor(aiModel: string): WritingModel[] {
    const { catalog, models, builtinFallback } = this.deps;
    const preferred = aiModel && catalog.has(aiModel) ? aiModel : catalog.defaultModel().id;
    const order = [
      preferred,
      ...catalog
        .remoteModels()
        .map((m) => m.id)
        .filter((id) => id !== preferred),
    ];
    const builtin = catalog.list().find((m) => m.builtin)!.id;
    if (builtinFallback && !order.includes(builtin)) order.push(builtin);
    return order.map((id) => models.get(id)).filter((m): m is WritingModel => m !== undefined);
  }

  private async context(workspaceId: number, kind: WritingKind, platform: Platform): Promise<Context> {
    const { workspaces, styles, history, voice } = this.deps;
    const [style, platformStyle, rules, profile, recent] = await Promise.all([
      workspaces.style(workspaceId),
      styles.style(workspaceId, platform),
      workspaces.activeRules(workspaceId),
      voice.profile(workspaceId),
      history.recentBodies(workspaceId, RECENT_POSTS_CHECKED),
    ]);
    const ruleTexts = [...rules.filter((r) => RULE_SCOPES[kind].includes(r.scope || 'all')).map((r) => r.content), style.guidance];
    return {
      chain: new FallbackChain(this.modelsFor(style.aiModel), {
        timeoutMs: this.deps.timeoutMs,
        deadline: Date.now() + this.deps.budgetMs,
        logger: this.deps.logger,
        ...(this.deps.onProduced ? { onProduced: this.deps.onProduced } : {}),
      }),
      style: { tone: style.tone, structure: style.structure, includeEmoji: style.includeEmoji },
      platformStyle,
      voice: profile,
      rules: parseRules(ruleTexts.filter(Boolean)),
      guard: new DuplicateGuard(recent),
      recent,
    };
  }

  private brief(ctx: Context, b: { kind: WritingKind; platform: Platform; topic: string; angle?: string | undefined; seed: number; parts?: number; slides?: number }): WritingBrief {
    const limit = hardLimit(b.platform);
    const target = Math.max(1, Math.min(ctx.platformStyle.lengthTarget, limit));
    return {
      kind: b.kind,
      platform: b.platform,
      topic: b.topic,
      angle: b.angle,
      style: ctx.style,
      platformStyle: ctx.platformStyle,
      voice: ctx.voice,
      rules: ctx.rules,
      seed: b.seed,
      limit,
      targetLength: b.kind === 'carousel' ? Math.min(target, 700) : target,
      ...(b.parts !== undefined ? { parts: b.parts } : {}),
      ...(b.slides !== undefined ? { slides: b.slides } : {}),
      avoid: ctx.recent.slice(0, 3),
    };
  }
}
