import { CAPABILITIES, countCharacters } from '@spa/platforms';
import { PLATFORMS, PREFERENCE_TONES, type Platform } from '@spa/vocabulary';
import { describe, expect, it } from 'vitest';
import type { WritingBrief } from '../writing/brief.js';
import { hardLimit, targetLength } from '../writing/limits.js';
import { EMPTY_RULES } from '../writing/rules.js';
import { neutralVoiceProfile } from '../voice/voice-profile.js';
import { compose } from './composer.js';

/**
 * How the built-in composer writes, measured over 50 topic × angle × platform combinations: ten topics as users
 * type them (noun phrases, gerunds, questions, "how to" clauses), each given five different angles on five
 * platforms, as one batch per topic. It fails on an angle written out verbatim, on a question-like topic pasted
 * as it was typed, on any line that does not name the topic (or a word of it, inflected), on a sentence
 * repeated within a batch, on a piece over the platform's limit and on a different text for the same seed.
 */
const TOPICS = [
  'bootstrapping a SaaS',
  'why tests matter',
  'remote work',
  'how to hire your first engineer',
  'email marketing',
  'code review',
  'what makes a good README',
  'customer onboarding',
  'pricing a B2B product',
  'sleep',
];
const ANGLES = [
  'contrarian',
  'lessons learned',
  'a myth worth busting',
  'before and after',
  'a quick how-to',
  'the most common mistakes',
  'what beginners should know first',
  'the tools that help',
  'why it matters now',
];
const CLAUSE = /^(why|how|what|when|where|which|who|should|can|is|are|do|does)\b/i;
const NOT_A_TOPIC_WORD = new Set(
  'a an the and or of for to in on at by with about from into your our my their why how what when where which who makes make matter matters is are do does should can good'.split(' '),
);

/** A word without its inflection, for matching "hire" with "hiring" and "test" with "tests". */
const stem = (word: string) =>
  word
    .toLowerCase()
    .replace(/(ing|es|s|ed|e)$/u, '')
    .slice(0, 4);
const wordsOf = (text: string) => text.match(/[\p{L}\p{N}]+/gu) ?? [];
/** Its sentences, normalised; hashtag lines are not sentences (a batch on one topic shares its tags). */
const sentencesOf = (text: string) =>
  text
    .split(/\n+|(?<=[.!?])\s+/u)
    .filter((s) => !/^(#[\p{L}\p{N}_]+\s*)+$/u.test(s.trim()))
    .map((s) =>
      s
        .toLowerCase()
        .replace(/[^\p{L}\p{N} ]+/gu, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .filter((s) => s.split(' ').length >= 2);

function brief(i: number, k: number, over: Partial<WritingBrief> = {}): WritingBrief {
  const platform = PLATFORMS[(i * 5 + k) % PLATFORMS.length]!;
  return {
    kind: 'post',
    platform,
    topic: TOPICS[i]!,
    angle: ANGLES[(i + k) % ANGLES.length]!,
    style: { tone: PREFERENCE_TONES[(i + k) % PREFERENCE_TONES.length]!, structure: 'auto', includeEmoji: (i + k) % 3 === 0 },
    voice: neutralVoiceProfile(new Date('2026-01-01T00:00:00Z')),
    rules: EMPTY_RULES,
    seed: 1000 * i + k,
    limit: hardLimit(platform),
    targetLength: targetLength(platform),
    avoid: [],
    ...over,
  };
}

/** The texts of one piece of writing: the post body or every thread part. */
function textsOf(b: WritingBrief): string[] {
  const written = compose(b);
  if (written.kind === 'post') return [written.body];
  if (written.kind === 'thread') return written.parts;
  throw new Error('not measured here');
}

/** Every problem of one piece: angle or question-like topic verbatim, lines that do not name the topic. */
function problemsOf(b: WritingBrief, texts: string[]): string[] {
  const problems: string[] = [];
  const keywords = new Set(
    wordsOf(b.topic)
      .filter((w) => !NOT_A_TOPIC_WORD.has(w.toLowerCase()))
      .map(stem),
  );
  for (const text of texts) {
    const lower = text.toLowerCase();
    if (b.angle && lower.includes(b.angle.toLowerCase())) problems.push(`angle "${b.angle}" pasted: ${text}`);
    if (CLAUSE.test(b.topic) && lower.includes(b.topic.toLowerCase())) problems.push(`topic "${b.topic}" pasted as typed: ${text}`);
    for (const line of text.split('\n').map((l) => l.trim())) {
      if (!line || /^(#[\p{L}\p{N}_]+\s*)+$/u.test(line)) continue;
      if (!wordsOf(line).some((w) => keywords.has(stem(w)))) problems.push(`line not about "${b.topic}": ${line}`);
    }
  }
  return problems;
}

describe('the built-in composer writes about the topic, in the direction of the angle', () => {
  it('over 50 topic × angle × platform combinations: no pasted angle or topic, every line on topic, no sentence twice in a batch', () => {
    const problems: string[] = [];
    let measured = 0;
    for (let i = 0; i < TOPICS.length; i++) {
      const batch = new Map<string, string>();
      for (let k = 0; k < 5; k++) {
        const platform = PLATFORMS[(i * 5 + k) % PLATFORMS.length]!;
        // Every fifth piece is a thread where the platform has threads.
        const thread = k === 4 && CAPABILITIES[platform].threads;
        const b = brief(i, k, thread ? { kind: 'thread', parts: 3 + (i % 4) } : {});
        const texts = textsOf(b);
        expect(textsOf(b), 'the same seed writes the same text').toEqual(texts);
        if (thread) expect(texts).toHaveLength(b.parts!);
        for (const text of texts) expect(countCharacters(platform, text), `${platform}: ${text}`).toBeLessThanOrEqual(b.limit);
        problems.push(...problemsOf(b, texts));
        for (const sentence of texts.flatMap(sentencesOf)) {
          const earlier = batch.get(sentence);
          if (earlier !== undefined && earlier !== b.angle) problems.push(`"${sentence}" repeated in the batch on "${b.topic}" (angles ${earlier} and ${b.angle})`);
          batch.set(sentence, b.angle!);
        }
        measured++;
      }
    }
    expect(measured).toBe(50);
    expect(problems).toEqual([]);
  });

  it('inflects a topic instead of slotting it: questions and how-to clauses become what they are about', () => {
    const body = (topic: string, angle?: string) => textsOf(brief(0, 1, { topic, angle, platform: 'linkedin' as Platform, limit: 3000, targetLength: 900 })).join('\n');
    const tests = body('why tests matter', 'a myth worth busting');
    expect(tests).toMatch(/\btests (are|need|only|matter)\b/);
    expect(tests).not.toMatch(/\btests (is|needs|has)\b/);
    const hiring = body('how to hire your first engineer', 'the most common mistakes');
    expect(hiring.toLowerCase()).toContain('hiring your first engineer');
    expect(hiring.toLowerCase()).not.toContain('how to hire');
    // A gerund phrase keeps its verb in every mention, lowercased mid-sentence despite its acronyms.
    const pricing = body('Pricing a B2B SaaS product', 'the most common mistakes');
    expect(pricing.match(/SaaS product/g)?.length).toBe(pricing.match(/pricing a B2B SaaS product/gi)?.length);
    expect(pricing).not.toMatch(/[\p{Ll},] Pricing/u);
  });
});
