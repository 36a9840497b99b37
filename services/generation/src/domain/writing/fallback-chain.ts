import { AppError } from '@spa/errors';
import type { Logger } from '@spa/logger';
import type { AiModel } from '../models/catalog.js';
import type { WritingBrief, WritingModel, Written } from './brief.js';
import type { Verdict } from './acceptance.js';

export interface ChainOptions {
  /** One remote call's limit (AI_TIMEOUT_MS). */
  timeoutMs: number;
  /** Epoch ms after which no remote model is asked any more (the built-in composer still is). */
  deadline: number;
  logger: Logger;
  now?: () => number;
  /** Told of every accepted output (metrics: generations per provider, degraded ones). */
  onProduced?: (model: AiModel, degraded: boolean) => void;
}

export interface Produced {
  written: Written;
  model: AiModel;
  /** Produced by a model other than the preferred one, because the preferred failed or its output was unacceptable. */
  degraded: boolean;
}

/** Attempts per model for one item: a remote model gets a second chance after unacceptable output, the composer several seeds. */
const ATTEMPTS = { remote: 2, builtin: 8 };
const MIN_REMOTE_BUDGET_MS = 500;

/**
 * The models of one request, preferred first. Each item is asked of the preferred model, then of
 * the next ones. A model that fails (timeout, HTTP error, malformed answer, unreachable) is skipped
 * for the rest of the request so that a dead provider costs one timeout, not one per item; a model
 * whose output is unacceptable (limits, rules, near-duplicate) is asked again with another seed.
 */
export class FallbackChain {
  private readonly down = new Set<string>();
  private readonly now: () => number;

  constructor(
    private readonly models: readonly WritingModel[],
    private readonly options: ChainOptions,
  ) {
    if (models.length === 0) throw new Error('a fallback chain needs at least one model');
    this.now = options.now ?? Date.now;
  }

  get preferred(): AiModel {
    return this.models[0]!.model;
  }

  /** Produces one acceptable output; `briefFor(seed)` varies the brief per attempt, `check` judges it. */
  async produce(briefFor: (seed: number) => WritingBrief, check: (written: Written) => Verdict, seed: number): Promise<Produced> {
    const problems: string[] = [];
    for (const [index, candidate] of this.models.entries()) {
      const { model } = candidate;
      const attempts = model.builtin ? ATTEMPTS.builtin : ATTEMPTS.remote;
      for (let attempt = 0; attempt < attempts && !this.down.has(model.id); attempt++) {
        const remaining = this.options.deadline - this.now();
        if (!model.builtin && remaining < MIN_REMOTE_BUDGET_MS) {
          problems.push(`${model.id}: no time left in the request`);
          break;
        }
        const brief = briefFor((seed + attempt * 7919 + index * 104_729) >>> 0);
        let written: Written;
        try {
          written = await candidate.write(brief, AbortSignal.timeout(Math.max(Math.min(this.options.timeoutMs, remaining), 1)));
        } catch (err) {
          this.down.add(model.id);
          const reason = err instanceof Error ? err.message : String(err);
          this.options.logger.warn({ model: model.id, err }, 'model failed; trying the next model');
          problems.push(reason);
          break;
        }
        const verdict = check(written);
        if (verdict.ok) {
          const degraded = model.id !== this.preferred.id;
          this.options.onProduced?.(model, degraded);
          return { written: verdict.written, model, degraded };
        }
        this.options.logger.debug({ model: model.id, problems: verdict.problems }, 'output rejected');
        problems.push(`${model.id}: output ${verdict.problems.join('; ')}`);
      }
    }
    throw new AppError('GENERATION_FAILED', 'No model could produce acceptable content', { details: unique(problems).slice(0, 10) });
  }
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
