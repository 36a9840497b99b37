import { countCodePoints, type LineBreakStyle } from '@spa/platforms';
import type { AngleBank, AngleKind, Point } from './phrases.js';
import {
  ANGLE_CUES,
  ANGLE_KIND_NAMES,
  ANGLES,
  CAROUSEL_CAPTION_LEADS,
  CAROUSEL_CLOSING_TITLES,
  CAROUSEL_SUBTITLES,
  CTAS,
  DEFAULT_HASHTAG_COUNT,
  EMOJI,
  HOOKS,
  POINTS,
  QUESTION_CTAS,
  QUESTION_HOOKS,
  STORY_OPENINGS,
  STORY_TURNS,
  THREAD_CLOSERS,
  THREAD_OPENERS,
} from './phrases.js';
import { hashString, Random } from './random.js';
import { analyseTopic, type Form, type Topic } from './topic.js';
import { BUILTIN_MODEL } from '../models/catalog.js';
import { SLIDE_BODY_MAX, SLIDE_TITLE_MAX, type Slide, type WritingBrief, type WritingModel, type Written } from '../writing/brief.js';
import { cutAtWord, fitToLimit, fits } from '../writing/limits.js';
import { containsPhrase, removePhrase } from '../writing/rules.js';

/**
 * The built-in offline composer: no network, no key, no AI model; a template-based writer. It writes from a
 * phrase bank, choosing hooks, points, calls to action, emoji and hashtags with a PRNG seeded by the brief's
 * seed (same seed, same text), shaped by tone, structure, the voice profile (length, emoji and hashtag habits,
 * question habit, frequent phrases) and the checkable custom rules, within the brief's limit. The topic is
 * turned into a noun phrase its sentences agree with (topic.ts); the angle is never written out, it picks
 * the kind of post (myth and reality, a claim and its reasons, lessons, mistakes, steps, before and after…).
 */
export class BuiltinComposer implements WritingModel {
  readonly model = BUILTIN_MODEL;

  async write(brief: WritingBrief): Promise<Written> {
    return compose(brief);
  }
}

export function compose(brief: WritingBrief): Written {
  const c = new Composition(brief);
  switch (brief.kind) {
    case 'post':
      return { kind: 'post', body: c.post() };
    case 'thread':
      return { kind: 'thread', parts: c.thread(brief.parts ?? 2) };
    case 'carousel':
      return { kind: 'carousel', ...c.carousel(brief.slides ?? 6) };
  }
}

const STRUCTURES = ['short', 'hook_body_cta', 'list', 'story', 'question'] as const;
type Structure = (typeof STRUCTURES)[number];
const SHORT_PLATFORMS = new Set(['twitter', 'bluesky', 'threads', 'mastodon', 'pinterest']);

/** The kind of post an angle asks for (its words, never its text, reach the output); none or unknown: insight. */
export function angleKind(angle: string | undefined): AngleKind {
  if (!angle) return 'insight';
  return ANGLE_CUES.find(([, cue]) => cue.test(angle))?.[0] ?? 'insight';
}

class Composition {
  private readonly rnd: Random;
  private readonly subject: string;
  private readonly topic: Topic;
  private readonly kind: AngleKind;
  private readonly bank: AngleBank | undefined;
  private readonly tone: string;
  private readonly emoji: readonly string[];
  /** The platform style asks for many emoji: on the opening, every point and the call to action. */
  private readonly manyEmoji: boolean;

  constructor(private readonly brief: WritingBrief) {
    this.rnd = new Random(hashString(`${brief.seed}|${brief.kind}|${brief.platform}|${brief.topic}|${brief.angle ?? ''}`));
    this.subject = this.withoutForbidden(brief.topic).replace(/[\s.!?:;,]+$/u, '') || 'this';
    this.topic = analyseTopic(this.subject);
    this.kind = angleKind(brief.angle);
    this.bank = this.kind === 'insight' ? undefined : ANGLES[this.kind];
    this.tone = HOOKS[brief.style.tone] ? brief.style.tone : 'professional';
    const emojiAllowed = brief.style.includeEmoji && !brief.rules.noEmoji && brief.platformStyle?.emoji !== 'none';
    this.emoji = emojiAllowed ? this.rnd.shuffle(EMOJI[this.tone]!) : [];
    this.manyEmoji = emojiAllowed && brief.platformStyle?.emoji === 'many';
  }

  post(): string {
    const structure = this.structure();
    const target = this.targetLength();
    const { full, short } = this.topic;
    // An angle decides the opening; without one, the structure and the tone do.
    const hook = this.bank ? this.hook() : structure === 'question' ? this.pick(QUESTION_HOOKS, full) : structure === 'story' ? this.pick(STORY_OPENINGS, full) : this.hook();
    const pointCount = structure === 'short' ? 1 : Math.max(1, Math.min(structure === 'story' ? 3 : 5, Math.round((target - 160) / 95)));
    const points = this.points(Math.max(pointCount, structure === 'list' ? 3 : 1), true);
    const closes = this.bank?.closes ?? (structure === 'question' || this.brief.voice.questionRatio >= 0.5 ? QUESTION_CTAS : CTAS);
    const style = this.brief.platformStyle;
    // The platform style decides whether there is a call to action and may give its text; without one, the structure does.
    const fixedCta = style?.callToAction && style.callToActionText ? style.callToActionText : undefined;
    const cta = style
      ? style.callToAction
        ? (fixedCta ?? this.pick(closes, short))
        : undefined
      : structure === 'short' && this.brief.voice.questionRatio < 0.3
        ? undefined
        : this.pick(closes, short);
    const signoff = this.signoff();
    const tags = this.hashtags();

    const turn = this.pick(STORY_TURNS, short);
    const bullet = this.bulletStyle();
    const say = (p: Point, i = 0) => {
      const text = this.fill(p.text, short);
      return this.manyEmoji ? `${text} ${this.emoji[(i + 1) % this.emoji.length]}` : text;
    };
    const render = (kept: Point[], withCta: boolean, withSignoff: boolean) => {
      const body: string[] = [this.decorate(hook)];
      if (structure === 'list') body.push(kept.map((p, i) => `${bullet(i)}${say(p, i)}`).join('\n'));
      else if (structure === 'story' && !this.bank) {
        body.push(turn);
        body.push(kept.map((p, i) => (i === kept.length - 1 && kept.length > 1 ? `The lesson: ${lowerFirst(say(p, i))}` : say(p, i))).join(' '));
      } else body.push(...kept.map((p, i) => say(p, i)));
      if (withCta && cta) body.push(this.manyEmoji && cta !== fixedCta ? `${cta} ${this.emoji.at(-1)}` : cta);
      if (withSignoff && signoff) body.push(signoff);
      return layout(body, tags, style?.lineBreaks ?? 'paragraphs');
    };

    let kept = points;
    let withCta = true;
    let withSignoff = true;
    // A platform style's length target is kept as a ceiling; without one, the target is aimed at loosely.
    const slack = style ? 1 : 1.15;
    const tooLong = (text: string) => !fits(this.brief.platform, text, this.brief.limit) || countCodePoints(text) > target * slack;
    while (tooLong(render(kept, withCta, withSignoff))) {
      if (kept.length > 1) kept = kept.slice(0, -1);
      else if (withSignoff && signoff) withSignoff = false;
      else if (withCta && cta && !fixedCta) withCta = false;
      else break;
    }
    return fitToLimit(this.brief.platform, render(kept, withCta, withSignoff), this.brief.limit);
  }

  thread(count: number): string[] {
    const limit = this.brief.limit;
    const platform = this.brief.platform;
    const { full, short } = this.topic;
    const opener = this.pick(THREAD_OPENERS, short);
    const first = `${this.hook()}\n\n${opener}${this.emoji.length > 0 ? ' 🧵' : ':'}`;
    const middle = this.points(Math.max(count - 2, count === 2 ? 1 : 0), false).map((p) => {
      const text = this.fill(p.text, short);
      return this.rnd.chance(0.4) ? `${p.title}: ${lowerFirst(text)}` : text;
    });
    const closing = [this.pick(THREAD_CLOSERS, short), this.callToAction(this.bank?.closes ?? CTAS) ?? '', this.hashtags().join(' ')].filter(Boolean).join('\n\n');
    const parts = count === 2 ? [`${this.hook()}\n\n${middle[0]}`, closing] : [first, ...middle, closing];
    return parts.map((part) => fitToLimit(platform, part, limit) || cutAtWord(platform, full.text, limit) || cutAtWord(platform, short.text, limit));
  }

  carousel(count: number): { caption: string; slides: Slide[] } {
    const inner = Math.max(count - 2, 1);
    const { full, short } = this.topic;
    const slides: Slide[] = [
      { title: clip(upperFirst(this.topic.long ? this.subject : full.text), SLIDE_TITLE_MAX), body: this.pick(CAROUSEL_SUBTITLES, short).replace('{n}', String(inner)) },
      ...this.points(inner, false).map((p) => ({ title: p.title, body: clip(this.fill(p.text, short), SLIDE_BODY_MAX) })),
      { title: this.pick(CAROUSEL_CLOSING_TITLES, short), body: clip(this.brief.platformStyle?.callToActionText ?? this.pick(this.bank?.closes ?? CTAS, short), SLIDE_BODY_MAX) },
    ].slice(0, count);
    const caption = [
      this.decorate(this.hook()),
      this.pick(CAROUSEL_CAPTION_LEADS, short).replace('{n}', String(slides.length)),
      this.pick(this.bank?.closes ?? QUESTION_CTAS, short),
      this.hashtags().join(' '),
    ]
      .filter(Boolean)
      .join('\n\n');
    return { caption: fitToLimit(this.brief.platform, caption, this.brief.limit), slides };
  }

  /** The call to action of a thread's last part: the platform style's text, none when the style has none, else one of `closes`. */
  private callToAction(closes: readonly string[]): string | undefined {
    const style = this.brief.platformStyle;
    if (style && !style.callToAction) return undefined;
    return style?.callToActionText ?? this.pick(closes, this.topic.short);
  }

  /** `auto` (or an unknown value): short posts where the platform is short, otherwise a seeded choice. */
  private structure(): Structure {
    const wanted = this.brief.style.structure;
    if ((STRUCTURES as readonly string[]).includes(wanted)) return wanted as Structure;
    if (SHORT_PLATFORMS.has(this.brief.platform) || this.brief.limit < 400) return this.rnd.chance(0.3) ? 'question' : 'short';
    if (this.brief.voice.sampleSize >= 5 && this.brief.voice.listRatio >= 0.4) return 'list';
    return this.rnd.pick(['hook_body_cta', 'list', 'story', 'question', 'hook_body_cta'] as const);
  }

  /** The brief's target, pulled towards the workspace's usual length when it has a voice. */
  private targetLength(): number {
    const { voice, targetLength } = this.brief;
    if (voice.sampleSize < 5 || voice.medianLength <= 0) return targetLength;
    return Math.max(120, Math.min(targetLength, Math.round(voice.medianLength * 1.2)));
  }

  private hook(): string {
    if (this.topic.long) {
      // A long topic is usually a full sentence or prompt: open with it.
      const first = this.subject.split(/(?<=[.!?])\s+/)[0]!;
      return clip(upperFirst(first), Math.min(200, Math.floor(this.brief.limit / 2)));
    }
    return this.pick(this.bank?.hooks ?? HOOKS[this.tone]!, this.topic.full);
  }

  private decorate(text: string): string {
    return this.emoji.length > 0 ? `${text} ${this.emoji[0]}` : text;
  }

  /** One bullet style per post: an emoji (with include_emoji), an arrow, a dot or numbers. */
  private bulletStyle(): (i: number) => string {
    if (this.emoji.length > 1 && this.rnd.chance(0.5)) return () => `${this.emoji[1]} `;
    const style = this.rnd.int(3);
    return (i) => ['→ ', '• ', `${i + 1}. `][style]!;
  }

  /**
   * `n` distinct points that keep the forbidden-phrase rules, in seeded order: the angle's own first. A post
   * with an angle adds only its share of the general points (each kind has its own), so that the posts of a
   * batch, one angle each, never repeat a sentence; a thread or carousel may use them all.
   */
  private points(n: number, post: boolean): Point[] {
    const kindIndex = ANGLE_KIND_NAMES.indexOf(this.kind);
    const general = this.bank && post ? POINTS.filter((_, i) => i % ANGLE_KIND_NAMES.length === kindIndex) : POINTS;
    const ordered = [...this.rnd.shuffle(this.bank?.points ?? []), ...this.rnd.shuffle(general)];
    const clean = ordered.filter((p) => this.clean(this.fill(p.text, this.topic.short)) && this.clean(p.title));
    const out = clean.slice(0, n);
    // More parts than distinct points (only with many forbidden phrases): restate with a marker.
    for (let i = 0; out.length < n && clean.length > 0; i++) {
      const p = clean[i % clean.length]!;
      out.push({ title: p.title, text: `Worth repeating (${Math.floor(i / clean.length) + 2}): ${lowerFirst(p.text)}` });
    }
    return out;
  }

  /** A frequent phrase of the workspace's own posts as a closing line, some of the time. */
  private signoff(): string | undefined {
    const phrases = this.brief.voice.frequentPhrases.filter((p) => p.split(' ').length >= 2 && this.clean(p));
    if (this.brief.voice.sampleSize < 5 || phrases.length === 0 || !this.rnd.chance(0.5)) return undefined;
    return `${upperFirst(this.rnd.pick(phrases))}.`;
  }

  private hashtags(): string[] {
    const { voice, rules, platform } = this.brief;
    // The platform style's count governs; without one, the voice's habit, else the platform's usual count (at most 6).
    const style = this.brief.platformStyle;
    const habitual = voice.sampleSize >= 3 ? Math.round(voice.hashtagsPerPost) : (DEFAULT_HASHTAG_COUNT[platform] ?? 0);
    const count = style ? Math.min(style.hashtagCount, rules.maxHashtags ?? Infinity) : Math.min(habitual, rules.maxHashtags ?? Infinity, 6);
    if (count <= 0) return [];
    const fromVoice = voice.topHashtags.slice(0, Math.ceil(count / 2));
    // A style's count is met where the topic allows: its single words follow its phrases as tags.
    const candidates = [...fromVoice, ...topicTags(this.subject), ...(style ? wordTags(this.subject) : [])];
    const seen = new Set<string>();
    return candidates.filter((tag) => this.clean(tag) && !seen.has(tag.toLowerCase()) && seen.add(tag.toLowerCase())).slice(0, count);
  }

  private pick(templates: readonly string[], form: Form): string {
    const filled = templates.map((t) => this.fill(t, form));
    const clean = filled.filter((s) => this.clean(s));
    return this.rnd.pick(clean.length > 0 ? clean : filled);
  }

  /** A template with the topic in it, its verbs agreeing with the topic's number. */
  private fill(template: string, form: Form): string {
    const many = form.plural;
    return template
      .replaceAll('{T}', upperFirst(form.text))
      .replaceAll('{t}', midSentence(form.text))
      .replaceAll('{is}', many ? 'are' : 'is')
      .replaceAll('{was}', many ? 'were' : 'was')
      .replaceAll('{has}', many ? 'have' : 'has')
      .replaceAll('{does}', many ? 'do' : 'does')
      .replaceAll('{s}', many ? '' : 's')
      .replaceAll('{it}', many ? 'they' : 'it')
      .replaceAll('{them}', many ? 'them' : 'it')
      .replaceAll('{its}', many ? 'their' : 'its');
  }

  private clean(text: string): boolean {
    return !this.brief.rules.forbidden.some((phrase) => containsPhrase(text, phrase));
  }

  private withoutForbidden(text: string): string {
    return this.brief.rules.forbidden.reduce((out, phrase) => removePhrase(out, phrase), text.replace(/\s+/g, ' ').trim());
  }
}

/**
 * Joins a post's blocks (opening, points, call to action, sign-off) and its hashtag line the platform
 * style's way: `paragraphs` a blank line between blocks; `every_sentence` every sentence of a prose block
 * on its own line (list blocks keep their lines); `none` one block, hashtags at its end.
 */
function layout(blocks: string[], tags: string[], lineBreaks: LineBreakStyle): string {
  const tagLine = tags.join(' ');
  if (lineBreaks === 'none') return [...blocks.map((b) => b.replace(/\s*\n\s*/g, ' ')), tagLine].filter(Boolean).join(' ');
  const shaped = lineBreaks === 'every_sentence' ? blocks.flatMap((b) => (b.includes('\n') ? [b] : b.split(/(?<=[.!?])\s+(?=[\p{L}\p{N}"'“(])/u))) : blocks;
  return [...shaped, ...(tagLine ? [tagLine] : [])].join('\n\n');
}

const TAG_STOP = new Set('a about after also an and are as at by for from have how in into is its more most not of on or our that the their this to vs what when why with without you your'.split(' '));

/**
 * Hashtags from the topic: it splits at stop words into phrases ("remote work for small teams" →
 * "remote work", "small teams"), and each phrase gives a tag of its last two words, where an English
 * noun phrase keeps its head ("writing good API docs" → #APIDocs; the words keep their case).
 */
export function topicTags(subject: string): string[] {
  const phrases: string[][] = [[]];
  for (const word of subject.match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (TAG_STOP.has(word.toLowerCase()) || word.length < 2) {
      if (phrases.at(-1)!.length > 0) phrases.push([]);
    } else {
      phrases.at(-1)!.push(word);
    }
  }
  return phrases
    .filter((words) => words.length > 0)
    .map((words) => words.slice(-2).map(upperFirst).join(''))
    .filter((tag) => tag.length >= 4)
    .map((tag) => `#${tag}`);
}

/** One tag per word of the topic that is not a stop word (at least 4 letters), in order. */
function wordTags(subject: string): string[] {
  return (subject.match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length >= 4 && !TAG_STOP.has(w.toLowerCase())).map((w) => `#${upperFirst(w)}`);
}

function upperFirst(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function lowerFirst(text: string): string {
  return /^\p{Lu}(\p{Ll}|\s)/u.test(text) ? text.charAt(0).toLowerCase() + text.slice(1) : text;
}

/** A sentence-case subject ("Remote work") reads mid-sentence as "remote work"; acronyms and names stay. */
function midSentence(subject: string): string {
  const [first = '', ...rest] = subject.split(' ');
  // "Pricing a B2B product" is a gerund phrase, whatever its other words: it reads "pricing a B2B product".
  const sentenceCase = /^\p{Lu}\p{Ll}+$/u.test(first) && rest.length > 0 && (/ing$/u.test(first) || rest.every((w) => !/^\p{Lu}/u.test(w)));
  return sentenceCase ? lowerFirst(subject) : subject;
}

function clip(text: string, max: number): string {
  if (countCodePoints(text) <= max) return text;
  return cutAtWord('linkedin', text, max) || [...text].slice(0, max - 1).join('') + '…';
}
