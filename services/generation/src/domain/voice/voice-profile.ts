import { PREFERENCE_TONES } from '@spa/vocabulary';

/** How a workspace writes, learned from its posted and approved posts. */
export interface VoiceProfile {
  /** Posts learned from; 0 means the neutral profile of a workspace with no such posts. */
  sampleSize: number;
  /** Characters (code points). */
  averageLength: number;
  medianLength: number;
  averageLines: number;
  emojiPerPost: number;
  hashtagsPerPost: number;
  /** Most used hashtags, `#` included, most frequent first (at most 10). */
  topHashtags: string[];
  /** Most repeated 2- and 3-word phrases (at most 10), stop-word-only phrases excluded. */
  frequentPhrases: string[];
  questionRatio: number;
  exclamationRatio: number;
  listRatio: number;
  /** One of PREFERENCE_TONES, guessed by `guessTone`. */
  tone: string;
  updatedAt: Date;
}

export const VOICE_SAMPLE_LIMIT = 200;

const EMOJI = /\p{Extended_Pictographic}/gu;
const HASHTAG = /(?<![\p{L}\p{N}_])#[\p{L}\p{N}_]+/gu;
const LIST_LINE = /^\s*(?:[-•*▪➜→✅]|\d+[.)])\s+/mu;
const STOP_WORDS = new Set(
  (
    'a an and are as at be but by for from has have i if in into is it its me my of on or our so that the their them then there ' +
    'they this to us was we were what when which who will with you your not no do does did just than too very can'
  ).split(' '),
);

export function neutralVoiceProfile(now: Date): VoiceProfile {
  return {
    sampleSize: 0,
    averageLength: 0,
    medianLength: 0,
    averageLines: 0,
    emojiPerPost: 0,
    hashtagsPerPost: 0,
    topHashtags: [],
    frequentPhrases: [],
    questionRatio: 0,
    exclamationRatio: 0,
    listRatio: 0,
    tone: 'professional',
    updatedAt: now,
  };
}

/** Learns the profile from post bodies (newest first; at most VOICE_SAMPLE_LIMIT are used). */
export function learnVoiceProfile(bodies: readonly string[], now: Date): VoiceProfile {
  const sample = bodies
    .map((b) => b.trim())
    .filter(Boolean)
    .slice(0, VOICE_SAMPLE_LIMIT);
  if (sample.length === 0) return neutralVoiceProfile(now);
  const lengths = sample.map((b) => [...b].length).sort((a, b) => a - b);
  const share = (test: (body: string) => boolean) => round(sample.filter(test).length / sample.length);
  const mean = (values: number[]) => round(values.reduce((sum, v) => sum + v, 0) / values.length);
  const profile: Omit<VoiceProfile, 'tone'> = {
    sampleSize: sample.length,
    averageLength: Math.round(mean(lengths)),
    medianLength: lengths[Math.floor((lengths.length - 1) / 2)]!,
    averageLines: mean(sample.map((b) => b.split('\n').filter((line) => line.trim()).length)),
    emojiPerPost: mean(sample.map((b) => (b.match(EMOJI) ?? []).length)),
    hashtagsPerPost: mean(sample.map((b) => (b.match(HASHTAG) ?? []).length)),
    topHashtags: top(
      sample.flatMap((b) => (b.match(HASHTAG) ?? []).map((tag) => tag.toLowerCase())),
      10,
      1,
    ),
    frequentPhrases: frequentPhrases(sample),
    questionRatio: share((b) => b.includes('?')),
    exclamationRatio: share((b) => b.includes('!')),
    listRatio: share((b) => LIST_LINE.test(b)),
    updatedAt: now,
  };
  return { ...profile, tone: guessTone(profile, sample) };
}

/**
 * Tone heuristic, first match wins:
 * - `inspirational` when inspirational vocabulary (dream, believe, journey, …) is in ≥ 25 % of posts;
 * - `educational` when ≥ 40 % of posts are lists or teach (how to, tip, step, guide, lesson);
 * - `bold` when ≥ 40 % of posts carry an exclamation mark;
 * - `casual` when posts average ≥ 1 emoji or are short (median < 120 characters);
 * - `friendly` when ≥ 30 % ask a question;
 * - otherwise `professional`.
 */
export function guessTone(profile: Omit<VoiceProfile, 'tone'>, sample: readonly string[]): string {
  const share = (pattern: RegExp) => sample.filter((b) => pattern.test(b)).length / Math.max(sample.length, 1);
  if (share(/\b(dream|believe|journey|inspire|never give up|purpose|grateful)\b/i) >= 0.25) return 'inspirational';
  if (profile.listRatio >= 0.4 || share(/\b(how to|tip|tips|step|guide|lesson|learn)\b/i) >= 0.4) return 'educational';
  if (profile.exclamationRatio >= 0.4) return 'bold';
  if (profile.emojiPerPost >= 1 || profile.medianLength < 120) return 'casual';
  if (profile.questionRatio >= 0.3) return 'friendly';
  return PREFERENCE_TONES[0];
}

/** 2- and 3-grams seen in at least two posts, not made only of stop words, longest-and-most-frequent first. */
function frequentPhrases(sample: readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (const body of sample) {
    const words =
      body
        .toLowerCase()
        .replace(HASHTAG, ' ')
        .replace(/https?:\/\/\S+/g, ' ')
        .match(/[\p{L}\p{N}']+/gu) ?? [];
    const seen = new Set<string>();
    for (const n of [3, 2]) {
      for (let i = 0; i + n <= words.length; i++) {
        const gram = words.slice(i, i + n);
        if (gram.every((w) => STOP_WORDS.has(w)) || STOP_WORDS.has(gram[0]!) || STOP_WORDS.has(gram[n - 1]!)) continue;
        seen.add(gram.join(' '));
      }
    }
    for (const phrase of seen) counts.set(phrase, (counts.get(phrase) ?? 0) + 1);
  }
  const ranked = [...counts.entries()].filter(([, c]) => c >= 2).sort((a, b) => b[1] - a[1] || b[0].split(' ').length - a[0].split(' ').length || a[0].localeCompare(b[0]));
  // A bigram inside a kept trigram with the same count adds nothing.
  const kept: string[] = [];
  for (const [phrase, count] of ranked) {
    if (kept.some((k) => k.includes(phrase) && counts.get(k) === count)) continue;
    kept.push(phrase);
    if (kept.length === 10) break;
  }
  return kept;
}

function top(values: string[], limit: number, minCount: number): string[] {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.entries()]
    .filter(([, c]) => c >= minCount)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, limit)
    .map(([v]) => v);
}

const round = (n: number) => Math.round(n * 100) / 100;
