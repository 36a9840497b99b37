import type { AiModelChoice } from './model.js';
import type { ModelList } from './ports.js';

const quoted = (value: string) => JSON.stringify(value.length > 120 ? `${value.slice(0, 120)}…` : value);

/**
 * What this service owns of a workspace's preferences (accounts validates and stores the rest): the models it
 * offers, the one `aiModel` resolves to (the choice while offered, else the default) and, when `aiModel` is
 * given but not offered, the problem naming the field.
 */
export function resolveAiModel(models: ModelList, aiModel: string): AiModelChoice {
  const offered = aiModel === '' || models.has(aiModel);
  const available = models.list();
  return {
    availableAiModels: available,
    effectiveAiModel: aiModel && offered ? aiModel : models.defaultModel().id,
    aiModelProblem: offered ? '' : `ai_model: must be the id of one of the available_ai_models (${available.map((m) => m.id).join(', ')}); got ${quoted(aiModel)}`,
  };
}
