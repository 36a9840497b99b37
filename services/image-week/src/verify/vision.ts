import OpenAI from 'openai';
import type { Logger } from '@spa/logger';
import type { CardReader, ReadBack, TextRegion } from '../domain/ports.js';

const PROMPT = 'Transcribe every piece of text visible in this image exactly as written, in reading order. Answer with the text only.';

/**
 * Reads cards with an OpenAI-compatible vision model (chat completions with an image part). When the model fails
 * (error, timeout, empty answer) the fallback reader (the built-in OCR) reads the card instead, at no cost.
 */
export class VisionReader implements CardReader {
  private readonly client: OpenAI;

  constructor(
    private readonly opts: { baseUrl: string; apiKey: string; model: string; timeoutMs: number; costCentsPerRead: number },
    private readonly fallback: CardReader,
    private readonly logger: Pick<Logger, 'warn'>,
  ) {
    this.client = new OpenAI({ baseURL: opts.baseUrl, apiKey: opts.apiKey || 'none', timeout: opts.timeoutMs, maxRetries: 0 });
  }

  /** The model reads the whole card; the region is only passed on to the fallback. */
  async read(png: Buffer, region?: TextRegion): Promise<ReadBack> {
    try {
      const answer = await this.client.chat.completions.create({
        model: this.opts.model,
        temperature: 0,
        max_tokens: 400,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: PROMPT },
              { type: 'image_url', image_url: { url: `data:image/png;base64,${png.toString('base64')}` } },
            ],
          },
        ],
      });
      const text = answer.choices[0]?.message?.content;
      if (typeof text !== 'string' || !text.trim()) throw new Error('the vision model answered no text');
      return { text, costCents: this.opts.costCentsPerRead, reader: this.opts.model };
    } catch (err) {
      this.logger.warn({ err, model: this.opts.model }, 'vision read failed; reading the card with the built-in OCR');
      return this.fallback.read(png, region);
    }
  }
}
