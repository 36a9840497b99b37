import type { PlatformStyle } from '@spa/platforms';
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
  /**
   * The workspace's style for this platform (accounts' platform styles): length target, hashtag count,
   * emoji level, line breaks, call to action, image aspect. Absent only in tests of the composer's own
   * habits (then the platform's built-in habits apply, as before platform styles existed).
   */
  platformStyle?: PlatformStyle;
  voice: VoiceProfile;
  rules: RuleSet;
  /** Varies the output: the built-in composer's choices, a remote model's sampling hint. */
  seed: number;
  /** Hard limit of one text (post body, thread part or caption), counted the platform's way. */
  limit: number;
  /** Length to aim for (post body or caption): the platform style's `length_target`, never above `limit`. */
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
