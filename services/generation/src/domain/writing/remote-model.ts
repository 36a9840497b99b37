import type { AiModel } from '../models/catalog.js';
import type { ChatProvider } from '../models/chat-provider.js';
import type { WritingBrief, WritingModel, Written } from './brief.js';
import { parseAnswer, promptFor } from './prompt.js';

/** Tokens allowed per answer: generous for the longest carousel or a 25-part thread. */
const MAX_TOKENS = { post: 1200, thread: 4000, carousel: 3000 } as const;

/** A model of the OpenAI-compatible provider, prompted with the brief and read back into a `Written`. */
export class RemoteWritingModel implements WritingModel {
  constructor(
    readonly model: AiModel,
    private readonly provider: ChatProvider,
  ) {}

  async write(brief: WritingBrief, signal: AbortSignal): Promise<Written> {
    const text = await this.provider.complete(promptFor(brief), {
      model: this.model.id,
      maxTokens: MAX_TOKENS[brief.kind],
      // Retries of one item (a near-duplicate, a broken rule) sample more freely.
      temperature: Math.min(0.7 + (brief.seed % 4) * 0.1, 1.1),
      json: brief.kind !== 'post',
      signal,
    });
    return parseAnswer(brief, this.model.id, text);
  }
}
