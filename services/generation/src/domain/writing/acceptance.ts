import { countCharacters } from '@spa/platforms';
import type { Platform } from '@spa/vocabulary';
import { SLIDE_BODY_MAX, SLIDE_TITLE_MAX, type Slide, type WritingBrief, type Written } from './brief.js';
import { cutAtWord, fitToLimit, lengthProblem } from './limits.js';
import type { DuplicateGuard } from './near-duplicates.js';
import { checkRules, containsPhrase, repairForRules, type RuleSet } from './rules.js';

/** A finished output, or why it cannot be used (each problem a short phrase). */
export type Verdict = { ok: true; written: Written } | { ok: false; problems: string[] };

/**
 * The checks every model's output passes before it is returned: tidied, mechanically repaired for
 * the rules (see `repairForRules`), fitted to the platform limit, then checked: non-empty, within the
 * limit counted the platform's way, every checkable rule kept, not a near-duplicate (posts and threads).
 * An output that fails is never returned; the chain asks again or moves to the next model.
 */
export function accept(brief: WritingBrief, written: Written, guard: DuplicateGuard): Verdict {
  switch (written.kind) {
    case 'post': {
      const body = finishText(brief.platform, written.body, brief.rules, brief.limit);
      const problems = textProblems(brief.platform, body, brief.rules, brief.limit);
      if (body && guard.isNearDuplicate(body)) problems.push('is a near-duplicate of another post');
      return verdict(problems, { kind: 'post', body });
    }
    case 'thread':
      return acceptThread(brief, written.parts, guard);
    case 'carousel':
      return acceptCarousel(brief, written.caption, written.slides);
  }
}

/** Rules over a thread: start on the first part, end on the last, required phrases anywhere (added to the last part when missing); the rest on every part. */
function acceptThread(brief: WritingBrief, rawParts: string[], guard: DuplicateGuard): Verdict {
  const n = brief.parts ?? rawParts.length;
  const parts = normalizeThreadLength(rawParts.map(tidy).filter(Boolean), n);
  if (!parts) return { ok: false, problems: [`has ${rawParts.length} parts where ${n} are needed`] };
  const { rules } = brief;
  const perPart: RuleSet = { ...rules, required: [], startsWith: undefined, endsWith: undefined };
  const missing = rules.required.filter((phrase) => !parts.some((p) => containsPhrase(p, phrase)));
  const finished = parts.map((part, i) => {
    const partRules: RuleSet = {
      ...perPart,
      startsWith: i === 0 ? rules.startsWith : undefined,
      endsWith: i === n - 1 ? rules.endsWith : undefined,
      required: i === n - 1 ? missing : [],
    };
    return finishText(brief.platform, part, partRules, brief.limit);
  });
  const problems = finished.flatMap((part, i) => {
    const partRules: RuleSet = { ...perPart, startsWith: i === 0 ? rules.startsWith : undefined, endsWith: i === n - 1 ? rules.endsWith : undefined };
    return textProblems(brief.platform, part, partRules, brief.limit).map((p) => `part ${i + 1} ${p}`);
  });
  for (const phrase of rules.required) if (!finished.some((p) => containsPhrase(p, phrase))) problems.push(`lacks "${phrase}", which a rule requires`);
  if (new Set(finished.map((p) => p.toLowerCase())).size !== finished.length) problems.push('repeats a part');
  const whole = finished.join('\n\n');
  if (guard.isNearDuplicate(whole)) problems.push('is a near-duplicate of an earlier post');
  return verdict(problems, { kind: 'thread', parts: finished });
}

/**
 * Thread splitting: exactly `n` parts. Extra parts are dropped from the middle (the last part, the
 * closing one, is kept); missing parts are made by splitting the longest part at a sentence
 * boundary. Undefined when the text cannot be split into `n` parts.
 */
export function normalizeThreadLength(parts: string[], n: number): string[] | undefined {
  const out = [...parts];
  if (out.length > n) out.splice(n - 1, out.length - n);
  while (out.length < n) {
    const candidates = out.map((p, i) => ({ i, sentences: p.split(/(?<=[.!?])\s+/) })).filter((c) => c.sentences.length >= 2);
    if (candidates.length === 0) return undefined;
    const longest = candidates.reduce((a, b) => (out[b.i]!.length > out[a.i]!.length ? b : a));
    const half = Math.ceil(longest.sentences.length / 2);
    out.splice(longest.i, 1, longest.sentences.slice(0, half).join(' '), longest.sentences.slice(half).join(' '));
  }
  return out;
}

/** Carousel: exactly the asked number of slides, titles ≤ 80 and bodies ≤ 320 characters, rules on every text, the caption within LinkedIn's limit. */
function acceptCarousel(brief: WritingBrief, rawCaption: string, rawSlides: Slide[]): Verdict {
  const n = brief.slides ?? rawSlides.length;
  if (rawSlides.length < n) return { ok: false, problems: [`has ${rawSlides.length} slides where ${n} are needed`] };
  const { rules } = brief;
  const slideRules: RuleSet = { ...rules, required: [], startsWith: undefined, endsWith: undefined };
  const clip = (text: string, max: number) => (countCharacters('linkedin', text) <= max ? text : cutAtWord('linkedin', text, max));
  const slides = rawSlides.slice(0, n).map((s) => ({
    title: clip(repairForRules(tidy(s.title).replace(/\n+/g, ' '), slideRules), SLIDE_TITLE_MAX),
    body: clip(repairForRules(tidy(s.body), slideRules), SLIDE_BODY_MAX),
  }));
  const caption = finishText(brief.platform, rawCaption, rules, brief.limit);
  const problems = textProblems(brief.platform, caption, rules, brief.limit).map((p) => `caption ${p}`);
  slides.forEach((s, i) => {
    if (!s.title || !s.body) problems.push(`slide ${i + 1} lacks a title or body`);
    for (const p of checkRules(`${s.title}\n${s.body}`, slideRules)) problems.push(`slide ${i + 1} ${p}`);
  });
  return verdict(problems, { kind: 'carousel', caption, slides });
}

/** Tidy, then reserve room for what the rule repair may add, fit, repair. */
function finishText(platform: Platform, raw: string, rules: RuleSet, limit: number): string {
  const additions = [...rules.required, rules.startsWith ?? '', rules.endsWith ?? ''].filter(Boolean);
  const reserve = additions.length ? countCharacters(platform, `${additions.join('  ')}\n\n\n\n`) : 0;
  const fitted = fitToLimit(platform, tidy(raw), Math.max(limit - reserve, Math.floor(limit / 2)));
  return fitToLimit(platform, repairForRules(fitted, rules), limit);
}

function textProblems(platform: Platform, text: string, rules: RuleSet, limit: number): string[] {
  if (!text.trim()) return ['is empty'];
  const problems = checkRules(text, rules);
  const length = lengthProblem(platform, text, limit);
  if (length) problems.push(length);
  return problems;
}

function verdict(problems: string[], written: Written): Verdict {
  return problems.length ? { ok: false, problems } : { ok: true, written };
}

/** Trims lines, collapses runs of blank lines and stray spaces. */
export function tidy(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.replace(/[ \t]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
