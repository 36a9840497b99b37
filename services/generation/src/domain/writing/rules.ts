/**
 * Custom rules as generation applies them. Every active rule's text goes to the model as an
 * instruction; the clear patterns below are also CHECKED on every output (and repaired where a
 * mechanical fix is safe). A rule's content may hold several sentences; each is read on its own.
 *
 * Recognised (case-insensitive; a phrase is in "double", “curly” or 'single' quotes, or is a bare #hashtag):
 * - forbid:    never use|mention|say|write "X" · avoid "X" · don't / do not use|mention "X" · no "X"
 * - require:   always include|use|mention|add "X" · must include|contain "X" · include "X"
 * - end:       always end with "X" · end (every post) with "X"
 * - start:     always start|begin with "X" · start|begin with "X"
 * - emoji:     no emoji(s) · never use emoji(s) · without emoji(s) · avoid emoji(s)
 * - hashtags:  max|maximum|at most|up to N hashtag(s) · no hashtags · never use hashtags
 * Anything else is an instruction only (passed to AI models; the built-in composer cannot act on it).
 */
export interface RuleSet {
  forbidden: string[];
  required: string[];
  endsWith: string | undefined;
  startsWith: string | undefined;
  noEmoji: boolean;
  maxHashtags: number | undefined;
  /** Every rule text, for the model prompt. */
  instructions: string[];
}

export const EMPTY_RULES: RuleSet = { forbidden: [], required: [], endsWith: undefined, startsWith: undefined, noEmoji: false, maxHashtags: undefined, instructions: [] };

const PHRASE = String.raw`(?:"([^"]+)"|“([^”]+)”|'([^']+)'|‘([^’]+)’|(#[\p{L}\p{N}_]+))`;
const re = (body: string) => new RegExp(body, 'iu');
const FORBID = re(
  String.raw`\b(?:never\s+(?:use|mention|say|write|include)|avoid(?:\s+using)?|don'?t\s+(?:use|mention|say|write)|do\s+not\s+(?:use|mention|say|write|include)|no)\s+(?:the\s+(?:word|phrase|hashtag)\s+)?${PHRASE}`,
);
const REQUIRE = re(String.raw`\b(?:always\s+(?:include|use|mention|add)|must\s+(?:include|contain|mention)|include)\s+(?:the\s+(?:word|phrase|hashtag)\s+)?${PHRASE}`);
const END = re(String.raw`\b(?:always\s+)?end\s+(?:every\s+post\s+|each\s+post\s+|posts\s+)?with\s+${PHRASE}`);
const START = re(String.raw`\b(?:always\s+)?(?:start|begin)\s+(?:every\s+post\s+|each\s+post\s+|posts\s+)?with\s+${PHRASE}`);
const NO_EMOJI = /\b(?:no|never\s+use|without|avoid(?:\s+using)?|don'?t\s+use|do\s+not\s+use)\s+(?:any\s+)?emojis?\b/iu;
const NO_HASHTAGS = /\b(?:no|never\s+use|without|avoid(?:\s+using)?|don'?t\s+use|do\s+not\s+use)\s+(?:any\s+)?hashtags?\b/iu;
const MAX_HASHTAGS = /\b(?:max(?:imum)?(?:\s+of)?|at\s+most|up\s+to|no\s+more\s+than)\s+(\d{1,2})\s+hashtags?\b/iu;

export const EMOJI_PATTERN = /\p{Extended_Pictographic}(?:\uFE0F|\u200D\p{Extended_Pictographic})*/gu;
export const HASHTAG_PATTERN = /(?<![\p{L}\p{N}_&#])#[\p{L}\p{N}_]+/gu;

const phraseOf = (m: RegExpMatchArray) => (m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5] ?? '').trim();

/** Reads rule texts (active custom rules' content, and the free-text `custom_rules` preference). */
export function parseRules(texts: readonly string[]): RuleSet {
  const rules: RuleSet = { ...EMPTY_RULES, forbidden: [], required: [], instructions: texts.map((t) => t.trim()).filter(Boolean) };
  for (const sentence of texts.flatMap((t) => t.split(/(?<=[.!;\n])\s+|\n/))) {
    const end = sentence.match(END);
    const start = sentence.match(START);
    const forbid = sentence.match(FORBID);
    const require = sentence.match(REQUIRE);
    const max = sentence.match(MAX_HASHTAGS);
    if (end) rules.endsWith = phraseOf(end);
    else if (start) rules.startsWith = phraseOf(start);
    else if (forbid) rules.forbidden.push(phraseOf(forbid));
    else if (require) rules.required.push(phraseOf(require));
    if (NO_EMOJI.test(sentence)) rules.noEmoji = true;
    if (NO_HASHTAGS.test(sentence) && !forbid) rules.maxHashtags = 0;
    else if (max) rules.maxHashtags = Math.min(rules.maxHashtags ?? Infinity, Number(max[1]));
  }
  rules.forbidden = unique(rules.forbidden.filter(Boolean));
  rules.required = unique(rules.required.filter(Boolean));
  return rules;
}

/** Whether `text` contains `phrase` as whole words (case-insensitive); a hashtag matches only as a whole tag. */
export function containsPhrase(text: string, phrase: string): boolean {
  return phraseRegex(phrase).test(text);
}

function phraseRegex(phrase: string, flags = 'iu'): RegExp {
  const escaped = phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\p{L}\\p{N}_#])${escaped}(?![\\p{L}\\p{N}_])`, flags);
}

/** Removes every occurrence of `phrase` from `text` (used on inputs, never on finished output). */
export function removePhrase(text: string, phrase: string): string {
  return text
    .replace(phraseRegex(phrase, 'giu'), '')
    .replace(/[ \t]{2,}/g, ' ')
    .trim();
}

/** One message per broken rule; empty when `text` keeps every checkable rule. */
export function checkRules(text: string, rules: RuleSet): string[] {
  const problems: string[] = [];
  for (const phrase of rules.forbidden) if (containsPhrase(text, phrase)) problems.push(`uses "${phrase}", which a rule forbids`);
  for (const phrase of rules.required) if (!containsPhrase(text, phrase)) problems.push(`lacks "${phrase}", which a rule requires`);
  if (rules.endsWith && !text.trimEnd().toLowerCase().endsWith(rules.endsWith.toLowerCase())) problems.push(`does not end with "${rules.endsWith}"`);
  if (rules.startsWith && !text.trimStart().toLowerCase().startsWith(rules.startsWith.toLowerCase())) problems.push(`does not start with "${rules.startsWith}"`);
  if (rules.noEmoji && EMOJI_PATTERN.test(text)) problems.push('uses emoji, which a rule forbids');
  EMOJI_PATTERN.lastIndex = 0;
  const hashtags = (text.match(HASHTAG_PATTERN) ?? []).length;
  if (rules.maxHashtags !== undefined && hashtags > rules.maxHashtags) problems.push(`has ${hashtags} hashtags; a rule allows ${rules.maxHashtags}`);
  return problems;
}

/**
 * Mechanical fixes that cannot change what a text says: strip emoji when banned, drop the last
 * hashtags beyond the allowed count (keeping required ones), add a missing required hashtag/phrase
 * on the last line, and the required opening and ending. Forbidden words are NOT repaired (cutting
 * words out of a sentence garbles it): such output is rejected and regenerated.
 */
export function repairForRules(text: string, rules: RuleSet): string {
  let out = text;
  if (rules.noEmoji)
    out = out
      .replace(EMOJI_PATTERN, '')
      .replace(/[ \t]{2,}/g, ' ')
      .replace(/ +\n/g, '\n');
  if (rules.maxHashtags !== undefined) {
    const keep = new Set(rules.required.filter((p) => p.startsWith('#')).map((p) => p.toLowerCase()));
    if (rules.endsWith?.startsWith('#')) keep.add(rules.endsWith.toLowerCase());
    // Required hashtags are (or will be, once added below) in the text: they use the allowance first.
    let budget = Math.max(rules.maxHashtags - keep.size, 0);
    out = out.replace(HASHTAG_PATTERN, (tag) => {
      if (keep.has(tag.toLowerCase())) return tag;
      if (budget > 0) {
        budget--;
        return tag;
      }
      return '';
    });
    out = out
      .replace(/[ \t]{2,}/g, ' ')
      .replace(/[ \t]+$/gm, '')
      .replace(/\n{3,}/g, '\n\n');
  }
  const missing = rules.required.filter((p) => !containsPhrase(out, p));
  if (missing.length > 0) out = `${out.trimEnd()}\n\n${missing.join(' ')}`;
  if (rules.startsWith && !out.trimStart().toLowerCase().startsWith(rules.startsWith.toLowerCase())) out = `${rules.startsWith} ${out.trimStart()}`;
  if (rules.endsWith && !out.trimEnd().toLowerCase().endsWith(rules.endsWith.toLowerCase())) {
    // Move an ending already present elsewhere, rather than repeating it.
    if (containsPhrase(out, rules.endsWith)) out = removePhrase(out, rules.endsWith);
    out = `${out.trimEnd()}${rules.endsWith.startsWith('#') ? '\n\n' : ' '}${rules.endsWith}`;
  }
  return out.trim();
}

function unique(values: string[]): string[] {
  const seen = new Set<string>();
  return values.filter((v) => (seen.has(v.toLowerCase()) ? false : (seen.add(v.toLowerCase()), true)));
}
