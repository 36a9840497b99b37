import { AppError } from '@spa/errors';

/** One model a workspace can pick as `ai_model` (GET /preferences `available_ai_models`). */
export interface AiModel {
  id: string;
  label: string;
  premium: boolean;
  /** Typical cost of one generation, in millionths of a US dollar (0 for the built-in composer). */
  typicalCostMicros: number;
  /** True for the offline composer: no network, no key, no AI model behind it. */
  builtin: boolean;
}

export const BUILTIN_MODEL: AiModel = {
  id: 'builtin-composer',
  label: 'Built-in composer (offline, no AI model)',
  premium: false,
  typicalCostMicros: 0,
  builtin: true,
};

/**
 * The models this deployment offers: the configured OpenAI-compatible models (first = default)
 * followed by the built-in composer, which is always present and is the default when no
 * provider is configured.
 */
export class ModelCatalog {
  private readonly models: readonly AiModel[];

  constructor(remote: readonly AiModel[]) {
    const ids = new Set<string>();
    for (const model of remote) {
      if (model.id === BUILTIN_MODEL.id) throw new Error(`AI_MODELS may not use the reserved id ${BUILTIN_MODEL.id}`);
      if (ids.has(model.id)) throw new Error(`AI_MODELS lists ${model.id} twice`);
      ids.add(model.id);
    }
    this.models = [...remote, BUILTIN_MODEL];
  }

  list(): AiModel[] {
    return [...this.models];
  }

  has(id: string): boolean {
    return this.models.some((model) => model.id === id);
  }

  get(id: string): AiModel {
    const model = this.models.find((candidate) => candidate.id === id);
    if (!model) throw new AppError('INVALID_PARAMETERS', `Unknown AI model ${id}`);
    return model;
  }

  /** The first configured model, or the built-in composer when none is configured. */
  defaultModel(): AiModel {
    return this.models[0]!;
  }

  /** Models backed by the OpenAI-compatible provider, in configured order. */
  remoteModels(): AiModel[] {
    return this.models.filter((model) => !model.builtin);
  }
}

/**
 * Parses one AI_MODELS entry `id[:label[:premium[:typical_cost_micros]]]`. Model ids may contain
 * `/` (OpenRouter `openai/gpt-4o-mini`) but not `:`; Ollama tags (`llama3:8b`) are not supported in
 * this notation, write them without the tag or alias them on the server.
 */
export function parseModelEntry(entry: string): AiModel {
  const [id = '', label, premium, cost] = entry.split(':').map((part) => part.trim());
  if (!id) throw new Error(`AI_MODELS entry "${entry}" has no model id`);
  if (premium !== undefined && premium !== '' && premium !== 'true' && premium !== 'false') {
    throw new Error(`AI_MODELS entry "${entry}": premium must be true or false`);
  }
  const costMicros = cost === undefined || cost === '' ? 0 : Number(cost);
  if (!Number.isInteger(costMicros) || costMicros < 0) {
    throw new Error(`AI_MODELS entry "${entry}": typical_cost_micros must be a non-negative integer`);
  }
  return { id, label: label || id, premium: premium === 'true', typicalCostMicros: costMicros, builtin: false };
}
