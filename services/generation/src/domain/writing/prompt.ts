import { CAPABILITIES } from '@spa/platforms';
import type { ChatMessage } from '../models/chat-provider.js';
import { modelFailed } from '../models/chat-provider.js';
import type { Slide, WritingBrief, Written } from './brief.js';

/** The chat messages that ask a remote model for `brief`. */
export function promptFor(brief: WritingBrief): ChatMessage[] {
  const platform = CAPABILITIES[brief.platform].display_name;
  const { style, voice, rules } = brief;
  const system = [
    `You write social media content for ${platform}. Write as the account owner, in their voice. Output only what is asked, no preamble.`,
    `Tone: ${style.tone || 'professional'}. Structure: ${style.structure || 'auto'}. ${emojiInstruction(brief)}`,
    brief.platformStyle ? platformStyleInstruction(brief) : '',
    voice.sampleSize > 0
      ? `The owner's voice, learned from ${voice.sampleSize} of their posts: about ${voice.medianLength} characters per post, ${voice.averageLines} lines, ` +
        `${voice.emojiPerPost} emoji and ${voice.hashtagsPerPost} hashtags per post` +
        `${voice.topHashtags.length ? ` (favourites: ${voice.topHashtags.slice(0, 5).join(' ')})` : ''}, ` +
        `questions in ${Math.round(voice.questionRatio * 100)}% of posts, tone ${voice.tone}` +
        `${
          voice.frequentPhrases.length
            ? `; phrases they often use: ${voice.frequentPhrases
                .slice(0, 5)
                .map((p) => `"${p}"`)
                .join(', ')}`
            : ''
        }.`
      : '',
    rules.instructions.length ? `Rules you must follow:\n${rules.instructions.map((r) => `- ${r}`).join('\n')}` : '',
  ].filter(Boolean);
  return [
    { role: 'system', content: system.join('\n') },
    { role: 'user', content: userPrompt(brief) },
  ];
}

const EMOJI_WORDS = { none: 'Do not use emoji.', few: 'Emoji are welcome, used sparingly.', many: 'Use emoji generously: several in the post.' } as const;

/** The `include_emoji` preference and a "no emoji" rule forbid emoji; where allowed, the platform style says how many. */
function emojiInstruction({ style, rules, platformStyle }: WritingBrief): string {
  if (!style.includeEmoji || rules.noEmoji) return EMOJI_WORDS.none;
  return EMOJI_WORDS[platformStyle?.emoji ?? 'few'];
}

const LINE_BREAK_WORDS = {
  none: 'Write it as one block, without line breaks.',
  paragraphs: 'Split it into short paragraphs separated by a blank line.',
  every_sentence: 'Put every sentence on its own line, separated by a blank line.',
} as const;

/** The workspace's style for the platform (accounts' platform styles), stated for the model. */
function platformStyleInstruction(brief: WritingBrief): string {
  const s = brief.platformStyle!;
  const hashtags = brief.rules.maxHashtags !== undefined && brief.rules.maxHashtags < s.hashtagCount ? brief.rules.maxHashtags : s.hashtagCount;
  const cta = !s.callToAction ? 'Do not end with a call to action.' : s.callToActionText ? `End with this call to action, word for word: "${s.callToActionText}".` : 'End with a short call to action.';
  return [
    `House style for ${CAPABILITIES[brief.platform].display_name}:`,
    `- Length: aim for ${brief.targetLength} characters (never over ${brief.limit}).`,
    `- Hashtags: ${hashtags === 0 ? 'none; do not use any hashtag.' : `exactly ${hashtags}, on the last line.`}`,
    `- Line breaks: ${LINE_BREAK_WORDS[s.lineBreaks]}`,
    `- Call to action: ${cta}`,
    ...(brief.kind === 'carousel' ? [`- Images: slides are laid out for a ${s.imageAspect} (width:height) image.`] : []),
  ].join('\n');
}

function userPrompt(brief: WritingBrief): string {
  const about = `Topic: ${brief.topic}${brief.angle ? `\nAngle: ${brief.angle}` : ''}`;
  const avoid = brief.avoid.length
    ? `\nIt must clearly differ from these earlier posts:\n${brief.avoid
        .slice(0, 3)
        .map((a) => `«${a.slice(0, 300)}»`)
        .join('\n')}`
    : '';
  switch (brief.kind) {
    case 'post':
      return `${about}\nWrite one post of at most ${brief.targetLength} characters (hard limit ${brief.limit}). Reply with the post text only.${avoid}`;
    case 'thread':
      return (
        `${about}\nWrite a thread of exactly ${brief.parts} parts, each at most ${brief.limit} characters, without numbering. ` +
        `Reply with a JSON object {"parts": ["...", ...]} holding exactly ${brief.parts} strings.${avoid}`
      );
    case 'carousel':
      return (
        `${about}\nWrite a LinkedIn carousel of exactly ${brief.slides} slides: the first is the title slide, the last a call to action. ` +
        `Each slide has a title (at most 80 characters) and a body (at most 320 characters). Also write the caption of the post ` +
        `(at most ${brief.targetLength} characters). Reply with a JSON object {"caption": "...", "slides": [{"title": "...", "body": "..."}, ...]}.${avoid}`
      );
  }
}

/** Reads a model's answer for `brief`; a shape that cannot be read is the model's failure. */
export function parseAnswer(brief: WritingBrief, model: string, text: string): Written {
  if (brief.kind === 'post') return { kind: 'post', body: unwrap(text) };
  const json = parseJsonObject(model, text);
  if (brief.kind === 'thread') {
    const parts = json.parts ?? json.tweets;
    if (!Array.isArray(parts) || !parts.every((p) => typeof p === 'string')) throw modelFailed(model, 'answered a thread without a "parts" list of strings');
    return { kind: 'thread', parts: parts.map((p) => p.trim()).filter(Boolean) };
  }
  const slides = json.slides;
  if (typeof json.caption !== 'string' || !Array.isArray(slides) || !slides.every(isSlide)) {
    throw modelFailed(model, 'answered a carousel without "caption" and "slides" [{title, body}]');
  }
  return { kind: 'carousel', caption: unwrap(json.caption), slides: slides.map((s) => ({ title: s.title.trim(), body: s.body.trim() })) };
}

function isSlide(value: unknown): value is Slide {
  return typeof value === 'object' && value !== null && typeof (value as Slide).title === 'string' && typeof (value as Slide).body === 'string';
}

/** The JSON object in an answer, tolerating a Markdown code fence around it. */
function parseJsonObject(model: string, text: string): Record<string, unknown> {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  try {
    const parsed: unknown = JSON.parse(text.slice(start, end + 1));
    if (start >= 0 && typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw modelFailed(model, 'answered text that is not the requested JSON object');
}

/** Drops quotes or a code fence a model may wrap a post in. */
function unwrap(text: string): string {
  let out = text
    .trim()
    .replace(/^```[a-z]*\n([\s\S]*?)\n```$/u, '$1')
    .trim();
  if (/^"[\s\S]*"$/u.test(out) && !out.slice(1, -1).includes('"')) out = out.slice(1, -1).trim();
  return out;
}
