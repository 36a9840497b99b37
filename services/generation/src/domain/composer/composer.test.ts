import { CAPABILITIES, countCharacters, utf8ByteLength } from '@spa/platforms';
import { PLATFORMS, PREFERENCE_STRUCTURES, PREFERENCE_TONES, type Platform } from '@spa/vocabulary';
import { describe, expect, it } from 'vitest';
import { accept } from '../writing/acceptance.js';
import type { WritingBrief } from '../writing/brief.js';
import { hardLimit, targetLength } from '../writing/limits.js';
import { DuplicateGuard, jaccard, shingles } from '../writing/near-duplicates.js';
import { checkRules, EMPTY_RULES, parseRules } from '../writing/rules.js';
import { learnVoiceProfile, neutralVoiceProfile } from '../voice/voice-profile.js';
import { compose, topicTags } from './composer.js';

const TOPICS = [
  'remote work',
  'Pricing a B2B SaaS product',
  'AI',
  'why our team moved from weekly to daily deploys and what it did to our incident rate',
  'Ñandú conservation in Patagonia — 生物多样性 🌿',
  'x'.repeat(500),
  `${'word '.repeat(99)}end`,
];

function brief(platform: Platform, topic: string, seed: number, over: Partial<WritingBrief> = {}): WritingBrief {
  return {
    kind: 'post',
    platform,
    topic,
    angle: undefined,
    style: { tone: PREFERENCE_TONES[seed % PREFERENCE_TONES.length]!, structure: PREFERENCE_STRUCTURES[seed % PREFERENCE_STRUCTURES.length]!, includeEmoji: seed % 2 === 0 },
    voice: neutralVoiceProfile(new Date()),
    rules: EMPTY_RULES,
    seed,
    limit: hardLimit(platform),
    targetLength: targetLength(platform),
    avoid: [],
    ...over,
  };
}

/** Strictly within the platform's limit, counted the platform's way (and its byte cap). */
function expectWithin(platform: Platform, text: string, limit = hardLimit(platform)): void {
  expect(text.trim().length, `empty text on ${platform}`).toBeGreaterThan(0);
  expect(countCharacters(platform, text), `${platform}: ${text}`).toBeLessThanOrEqual(limit);
  expect(limit).toBeLessThanOrEqual(CAPABILITIES[platform].character_limit);
  const bytes = CAPABILITIES[platform].byte_limit;
  if (bytes !== undefined) expect(utf8ByteLength(text)).toBeLessThanOrEqual(bytes);
}

describe('built-in composer', () => {
  it('keeps every post within the limit of all 15 platforms, for many topics, tones, structures and seeds', () => {
    let checked = 0;
    for (const platform of PLATFORMS) {
      for (const topic of TOPICS) {
        for (let seed = 0; seed < 14; seed++) {
          const written = compose(brief(platform, topic, seed, { angle: seed % 3 === 0 ? 'the hidden costs nobody budgets for' : undefined }));
          if (written.kind !== 'post') throw new Error('expected a post');
          expectWithin(platform, written.body);
          checked++;
        }
      }
    }
    expect(checked).toBe(15 * TOPICS.length * 14);
  });

  it('is deterministic per seed and varies across seeds', () => {
    const a = compose(brief('linkedin', 'remote work', 7));
    expect(compose(brief('linkedin', 'remote work', 7))).toEqual(a);
    const bodies = new Set(Array.from({ length: 20 }, (_, seed) => (compose(brief('linkedin', 'remote work', seed)) as { body: string }).body));
    expect(bodies.size).toBe(20);
  });

  it('writes a batch of 20 on one category with no two near-duplicates when the angles differ', () => {
    const guard = new DuplicateGuard();
    const angles = ['the most common mistakes', 'a quick how-to', 'a myth worth busting', 'a simple checklist', 'the tools that help'];
    let accepted = 0;
    for (let i = 0; accepted < 20 && i < 200; i++) {
      const b = brief('linkedin', 'content marketing', 1000 + i, { angle: angles[i % angles.length] });
      const verdict = accept(b, compose(b), guard);
      if (verdict.ok && verdict.written.kind === 'post') {
        guard.remember(verdict.written.body);
        accepted++;
      }
    }
    expect(accepted).toBe(20);
  });

  it('writes threads of exactly 2..25 parts on every thread platform, each part within the limit, no part repeated', () => {
    for (const platform of PLATFORMS.filter((p) => CAPABILITIES[p].threads)) {
      for (const parts of [2, 3, 10, 25]) {
        const b = brief(platform, TOPICS[parts % TOPICS.length]!, parts, { kind: 'thread', parts });
        const written = compose(b);
        if (written.kind !== 'thread') throw new Error('expected a thread');
        expect(written.parts).toHaveLength(parts);
        expect(new Set(written.parts).size).toBe(parts);
        for (const part of written.parts) expectWithin(platform, part);
        expect(accept(b, written, new DuplicateGuard()).ok).toBe(true);
      }
    }
  });

  it('writes carousels with the asked number of slides and a caption within LinkedIn limits', () => {
    for (const slides of [3, 6, 10]) {
      const b = brief('linkedin', 'hiring your first engineer', slides, { kind: 'carousel', slides, targetLength: 700 });
      const written = compose(b);
      if (written.kind !== 'carousel') throw new Error('expected a carousel');
      expect(written.slides).toHaveLength(slides);
      for (const s of written.slides) {
        expect(s.title.length).toBeGreaterThan(0);
        expect(s.body.length).toBeGreaterThan(0);
      }
      expectWithin('linkedin', written.caption);
      expect(accept(b, written, new DuplicateGuard()).ok).toBe(true);
    }
  });

  it('honours checkable custom rules on every platform', () => {
    const rules = parseRules(['Never use "consistency". Always end with "#buildinpublic"', 'No emoji, max 2 hashtags', 'Always include "Acme"']);
    for (const platform of PLATFORMS) {
      for (let seed = 0; seed < 10; seed++) {
        const b = brief(platform, 'consistency in remote work', seed, { rules, style: { tone: 'casual', structure: 'auto', includeEmoji: true } });
        const verdict = accept(b, compose(b), new DuplicateGuard());
        expect(verdict.ok, JSON.stringify(verdict)).toBe(true);
        if (!verdict.ok || verdict.written.kind !== 'post') continue;
        const body = verdict.written.body;
        expect(checkRules(body, rules)).toEqual([]);
        expect(body.trimEnd().endsWith('#buildinpublic')).toBe(true);
        expect(body.toLowerCase()).not.toContain('consistency');
        expect(body).toContain('Acme');
        expectWithin(platform, body);
      }
    }
  });

  it('follows the voice profile: hashtag habit and length', () => {
    const samples = Array.from({ length: 12 }, (_, i) => `Shipping small things daily, day ${i}. Build in public keeps me honest. #buildinpublic #indiehackers`);
    const voice = learnVoiceProfile(samples, new Date());
    const b = brief('linkedin', 'side projects', 3, { voice, style: { tone: 'casual', structure: 'hook_body_cta', includeEmoji: false } });
    const written = compose(b) as { body: string };
    expect((written.body.match(/#\w+/g) ?? []).length).toBe(2);
    expect(written.body).toContain('#buildinpublic');
    expect(written.body.length).toBeLessThanOrEqual(Math.round(voice.medianLength * 1.2 * 1.15) + 40);
  });

  it('near-duplicate detection: shingles and Jaccard', () => {
    const a = 'Consistency beats intensity: a little progress every week compounds over time.';
    expect(jaccard(shingles(a), shingles(a.toUpperCase()))).toBe(1);
    expect(jaccard(shingles(a), shingles(`${a} Also, hydrate.`))).toBeGreaterThanOrEqual(0.6);
    expect(jaccard(shingles(a), shingles('Measure what changes, without a baseline everything is guesswork.'))).toBeLessThan(0.2);
    const guard = new DuplicateGuard([a]);
    expect(guard.isNearDuplicate(`${a}!`)).toBe(true);
    expect(guard.isNearDuplicate('A completely different post about hiring engineers in Berlin.')).toBe(false);
  });
});

describe('topic hashtags', () => {
  it('tags each phrase of the topic by its head words, keeping their case', () => {
    expect(topicTags('remote work for small teams')).toEqual(['#RemoteWork', '#SmallTeams']);
    expect(topicTags('writing good API docs')).toEqual(['#APIDocs']);
    expect(topicTags('Productivity')).toEqual(['#Productivity']);
    expect(topicTags('how to hire in 2027')).toEqual(['#Hire', '#2027']);
    expect(topicTags('a to b')).toEqual([]);
  });
});
