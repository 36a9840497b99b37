import type { Platform } from '@spa/vocabulary';
import type { AiModel } from '../models/catalog.js';
import type { VoiceProfile } from '../voice/voice-profile.js';
import type { RuleSet } from './rules.js';

export type WritingKind = 'post' | 'thread' | 'carousel';

/** The workspace's generation preferences that shape the text. */
export interface Style {
  tone: string;
  structure: string;
  includeEmoji: boolean;
}

/** Everything a model is told for one piece of writing. */
export interface WritingBrief {
  kind: WritingKind;
  platform: Platform;
  topic: string;
  angle: string | undefined;
  style: Style;
  voice: VoiceProfile;
  rules: RuleSet;
  /** Varies the output: the built-in composer's choices, a remote model's sampling hint. */
  seed: number;
  /** Hard limit of one text (post body, thread part or caption), counted the platform's way. */
  limit: number;
  /** Length to aim for (post body or caption). */
  targetLength: number;
  /** Thread: number of parts. */
  parts?: number;
  /** Carousel: number of slides. */
  slides?: number;
  /** Earlier texts the new one must not resemble (a few, for the prompt). */
  avoid: string[];
}

export interface Slide {
  title: string;
  body: string;
}

export type Written = { kind: 'post'; body: string } | { kind: 'thread'; parts: string[] } | { kind: 'carousel'; caption: string; slides: Slide[] };

/** One model able to write: a remote chat model (prompted) or the built-in composer. */
export interface WritingModel {
  readonly model: AiModel;
  write(brief: WritingBrief, signal: AbortSignal): Promise<Written>;
}

/** Carousel slide text limits (the PDF layout is sized for them). */
export const SLIDE_TITLE_MAX = 80;
export const SLIDE_BODY_MAX = 320;
