import { countCodePoints } from '@spa/platforms';

/**
 * A topic as the composer uses it: a noun phrase it can put in a sentence, with the number its verbs agree
 * with, instead of the string as typed. "why tests matter" becomes "tests" (plural: "tests matter", "they
 * break"); "how to hire your first engineer" becomes "hiring your first engineer"; a long phrase is referred
 * to by its head ("remote work for small distributed teams" → "remote work") after its first mention.
 */
export interface Topic {
  /** The first mention: the whole noun phrase ("bootstrapping a SaaS"). */
  full: Form;
  /** Later mentions: the head of a long phrase, else the whole phrase again. */
  short: Form;
  /** Longer than a sentence can carry: the composer opens with the topic's first sentence instead. */
  long: boolean;
}

export interface Form {
  text: string;
  plural: boolean;
}

const LONG_TOPIC = 60;
const QUESTION_WORDS = new Set(['why', 'what', 'when', 'where', 'which', 'who', 'whether']);
const AUXILIARIES = new Set(['do', 'does', 'did', 'is', 'are', 'was', 'were', 'should', 'can', 'could', 'will', 'would', 'makes', 'make', 'to']);
/** Verbs a "why X matter"-style topic ends with: the noun phrase is what comes before. */
const CLAUSE_VERBS = new Set(
  'matter matters work works fail fails win wins help helps scale scales break breaks count counts pay pays last lasts sell sells grow grows beat beats stick sticks'.split(' '),
);
const DETERMINERS = new Set(['a', 'an', 'the', 'our', 'your', 'my', 'their', 'his', 'her']);
const STOP = new Set('a about after also an and are as at by for from have how in into is its more most not of on or our that the their this to vs what when why with without you your'.split(' '));

export function analyseTopic(subject: string): Topic {
  const noun = nounPhrase(subject);
  if (countCodePoints(noun) > LONG_TOPIC || noun.split(' ').length > 8) {
    const head = headOf(noun);
    const form = head && countCodePoints(head) <= 40 ? head : 'this';
    return { full: formOf(form), short: formOf(form), long: true };
  }
  // A gerund phrase ("pricing a B2B SaaS product") loses its meaning without its verb: it keeps its whole self.
  const head = noun.split(' ').length >= 5 && !/ing$/i.test(noun.split(' ')[0]!) ? headOf(noun) : undefined;
  return { full: formOf(noun), short: formOf(head ?? noun), long: false };
}

/** The topic as a noun phrase: questions and "how to" clauses are turned into the thing they are about. */
function nounPhrase(subject: string): string {
  const words = subject.split(' ').filter(Boolean);
  const first = words[0]?.toLowerCase() ?? '';
  if (first === 'how' && words[1]?.toLowerCase() === 'to' && words.length > 2) return [gerund(words[2]!), ...words.slice(3)].join(' ');
  if (QUESTION_WORDS.has(first) || (first === 'how' && words.length > 2)) {
    let rest = words.slice(1);
    while (rest.length > 1 && AUXILIARIES.has(rest[0]!.toLowerCase())) rest = rest.slice(1);
    if (rest.length > 1 && CLAUSE_VERBS.has(rest.at(-1)!.toLowerCase())) rest = rest.slice(0, -1);
    return withoutDeterminer(rest).join(' ');
  }
  return subject;
}

function withoutDeterminer(words: string[]): string[] {
  return words.length > 1 && DETERMINERS.has(words[0]!.toLowerCase()) ? words.slice(1) : words;
}

/** hire → hiring, write → writing, run → running, see → seeing. */
export function gerund(verb: string): string {
  const v = verb.toLowerCase();
  if (v.endsWith('ing') || !/^[a-z]+$/.test(v)) return verb;
  if (v.endsWith('ie')) return `${verb.slice(0, -2)}ying`;
  if (v.endsWith('e') && !v.endsWith('ee') && !v.endsWith('ye') && v.length > 2) return `${verb.slice(0, -1)}ing`;
  if (v.length <= 4 && /[^aeiou][aeiou][bdgmnprt]$/.test(v)) return `${verb}${v.at(-1)}ing`;
  return `${verb}ing`;
}

/** The last two words of the first multi-word phrase between stop words ("remote work for small teams" → "remote work"). */
function headOf(noun: string): string | undefined {
  const phrases: string[][] = [[]];
  for (const word of noun.split(' ')) {
    const bare = word.replace(/[^\p{L}\p{N}-]/gu, '');
    if (!bare || STOP.has(bare.toLowerCase())) {
      if (phrases.at(-1)!.length > 0) phrases.push([]);
    } else phrases.at(-1)!.push(bare);
  }
  const chosen = phrases.find((p) => p.length >= 2) ?? phrases.find((p) => p.length > 0);
  return chosen?.slice(-2).join(' ');
}

function formOf(text: string): Form {
  const words = text.split(' ');
  const last = words.at(-1) ?? '';
  const gerundPhrase = /ing$/i.test(words[0] ?? '') && words.length > 1;
  const plural = !gerundPhrase && (words.includes('and') || (/[^su']s$/.test(last) && !/^\p{Lu}+s$/u.test(last)));
  return { text, plural };
}
