/**
 * The built-in composer's phrase bank. `{t}` is the topic as a noun phrase mid-sentence, `{T}` opening a
 * sentence; its verbs agree through `{is}`, `{has}`, `{does}`, `{s}` (a verb's -s), `{it}` (it/they),
 * `{them}` (it/them) and `{its}` (its/their). Every line that gives advice names the topic: a sentence that
 * would be as true of any other topic does not belong here. An angle is never written out: it chooses the
 * kind of post (ANGLE_KINDS) and so its opening, its lines and its closing question.
 */

export interface Point {
  title: string;
  text: string;
}

/** The kinds of post an angle asks for; `insight` is the plain post when no angle (or an unknown one) is given. */
export const ANGLE_KIND_NAMES = ['insight', 'myth', 'contrarian', 'lessons', 'mistakes', 'howto', 'before_after', 'beginners', 'future', 'tools'] as const;
export type AngleKind = (typeof ANGLE_KIND_NAMES)[number];

/** Which kind an angle's words ask for, first match wins ("a myth worth busting" → myth). */
export const ANGLE_CUES: ReadonlyArray<readonly [AngleKind, RegExp]> = [
  ['myth', /\b(myths?|misconceptions?|believe|truth)\b/i],
  ['contrarian', /\b(contrarian|counter|unpopular|hot take|overrated|stop doing|against|controversial)/i],
  ['before_after', /\b(before|after|then and now|transformation|changed)\b/i],
  ['lessons', /\b(lessons?|learned|learnt|hard way|differently|regrets?|behind the scenes|story)\b/i],
  ['mistakes', /\b(mistakes?|pitfalls?|errors?|wrong|avoid|traps?)\b/i],
  ['tools', /\b(tools?|stack|software|apps?|resources?)\b/i],
  ['beginners', /\b(beginners?|basics|newcomers?|101|questions to ask|starting out|first know)\b/i],
  ['future', /\b(next|future|trends?|now|long game|cost of ignoring|years?|matters)\b/i],
  ['howto', /\b(how|steps?|guide|checklist|tips?|process|measure|habit|experiment|first step|playbook|framework|less)\b/i],
];

export interface AngleBank {
  hooks: readonly string[];
  points: readonly Point[];
  closes: readonly string[];
}

export const ANGLES: Readonly<Record<Exclude<AngleKind, 'insight'>, AngleBank>> = {
  myth: {
    hooks: ['A few things people believe about {t} do not hold up.', 'Some myths about {t} keep getting repeated. Time to retire them.', 'Most of what gets repeated about {t} is half true at best.'],
    points: [
      { title: 'It costs too much', text: 'Myth: {t} need{s} a big budget. Reality: the cheapest experiments often teach the most.' },
      { title: 'Later is fine', text: 'Myth: you can sort out {t} later. Reality: every month you wait makes {them} harder to untangle.' },
      { title: 'One and done', text: 'Myth: {t} {is} a one-off project. Reality: {it} only pay{s} off once {it} become{s} a habit.' },
      { title: 'Experts get it right', text: 'Myth: experts get {t} right the first time. Reality: they just notice their mistakes sooner.' },
      { title: 'More hours', text: 'Myth: more hours fix {t}. Reality: clearer priorities do.' },
      { title: 'Only for big teams', text: 'Myth: {t} {is} only for big teams. Reality: small teams feel the benefit first.' },
      { title: 'One right way', text: 'Myth: there is one right way to do {t}. Reality: the right approach is the one you can keep up.' },
    ],
    closes: ['Which myth about {t} would you add?', 'What did you believe about {t} that turned out to be wrong?'],
  },
  contrarian: {
    hooks: ['Hot take: most advice about {t} optimises for looking busy.', 'I think we overrate the usual approach to {t}, and I can say why.', 'An opinion about {t} that will not be popular:'],
    points: [
      { title: 'Who writes the advice', text: 'The reason: much of the advice about {t} comes from people who sell the tools around {them}.' },
      { title: 'Less, on purpose', text: 'Doing less for {t}, but on purpose, beats doing more of {them} out of habit.' },
      { title: 'Skip the checklist', text: 'The best results with {t} I have seen came from ignoring most of the standard checklist.' },
      { title: 'Plans break', text: 'If {t} only work{s} when everything goes to plan, {it} {does} not really work.' },
      { title: 'Big-company copies', text: "Copying a big company's approach to {t} gets you its costs without its benefits." },
      { title: 'Activity is not progress', text: 'The popular numbers for {t} measure activity, not outcomes.' },
    ],
    closes: ['Tell me where this take on {t} is wrong.', 'Agree or disagree: is the usual approach to {t} worth the effort?'],
  },
  lessons: {
    hooks: ['I learned a few things about {t} the expensive way.', 'What {t} taught me after getting {them} wrong more than once:', 'If I started over with {t}, I would do a few things differently.'],
    points: [
      { title: 'Ask earlier', text: 'I waited too long to ask for help with {t}; the first conversation saved weeks.' },
      { title: 'Smaller plans', text: 'My first plan for {t} was too big, and the smaller second one is the one that worked.' },
      { title: 'Results, not effort', text: 'I judged {t} by effort instead of results, and it took a year to notice.' },
      { title: 'The boring parts', text: 'The parts of {t} I skipped as boring were exactly the ones that broke later.' },
      { title: 'Write decisions down', text: 'Writing down each decision about {t} would have spared me the same argument five times.' },
      { title: 'Understand first', text: "I copied someone else's approach to {t} before I understood my own problem." },
      { title: 'Quiet progress', text: 'The quiet, weekly progress on {t} mattered more than any big push.' },
    ],
    closes: ['What has {t} taught you the hard way?', 'Which of these lessons about {t} did you have to learn twice?'],
  },
  mistakes: {
    hooks: [
      'Most problems with {t} come from the same handful of mistakes.',
      'The mistakes I see most often with {t}, and what to do instead:',
      'If {t} {is} not working for you, check these mistakes first.',
    ],
    points: [
      { title: 'A one-off project', text: 'Treating {t} as a one-off project instead of a habit.' },
      { title: 'Tools first', text: 'Buying tools for {t} before deciding what good looks like.' },
      { title: 'Busy, not better', text: 'Judging {t} by how busy {it} keep{s} you instead of what {it} change{s}.' },
      { title: 'Everything at once', text: 'Changing everything about {t} at once, so nobody knows what helped.' },
      { title: 'No owner', text: 'Leaving {t} without an owner and hoping someone picks {them} up.' },
      { title: 'Borrowed playbooks', text: "Copying a big company's playbook for {t} without its budget or its problems." },
      { title: 'Quitting early', text: 'Giving up on {t} just before the results start to show.' },
    ],
    closes: ['Which mistake with {t} would you add to the list?', 'Which of these mistakes with {t} have you made? I have made most of them.'],
  },
  howto: {
    hooks: ['How to get going with {t}, step by step:', 'A simple way to approach {t} this week:', 'The process I use for {t}, in order:'],
    points: [
      { title: 'Define success', text: 'Write down what success with {t} would look like in three months.' },
      { title: 'Start where it hurts', text: 'Pick the one part of {t} that hurts most today and start there.' },
      { title: 'Book the time', text: 'Block one hour a week for {t}, on the calendar rather than in your head.' },
      { title: 'Smallest version', text: 'Try the smallest version of {t} that could possibly work.' },
      { title: 'Keep what works', text: 'After two weeks, keep only the parts of {t} that earned their place.' },
      { title: 'Share it', text: 'Walk one colleague through what you learned about {t}, so it does not live in your head alone.' },
      { title: 'Raise the bar', text: 'Repeat, and make the next round of {t} a little more ambitious.' },
    ],
    closes: ['Which step of {t} do you usually skip?', 'What would you add to this process for {t}?'],
  },
  before_after: {
    hooks: ['What changed when we stopped improvising {t}:', 'How {t} looked a year ago, and how {it} look{s} today.', 'Same team, same budget, a different approach to {t}.'],
    points: [
      { title: 'An owner', text: 'Before: {t} happened when someone had time. After: {it} {has} a slot in the week and an owner.' },
      { title: 'One number', text: 'Before: we argued about {t} in meetings. After: we agreed on one number and look at it weekly.' },
      { title: 'Fewer surprises', text: 'Before: every problem with {t} was a surprise. After: a short checklist catches most of them.' },
      { title: 'Worth the time', text: 'Before: {t} felt like overhead. After: {it} save{s} more time than {it} cost{s}.' },
      { title: 'Written down', text: 'Before: one person knew how {t} worked. After: the process is written down and anyone can pick it up.' },
      { title: 'Measured changes', text: 'Before: we changed everything about {t} at once. After: one change at a time, measured.' },
    ],
    closes: ['How has your approach to {t} changed over the past year?', 'Where {is} {t} on that path for you?'],
  },
  beginners: {
    hooks: ['New to {t}? Start here.', 'What I wish someone had told me on day one with {t}:', 'The basics of {t} that beginners skip:'],
    points: [
      { title: 'Just start', text: 'You do not need the perfect setup to start with {t}; you need a first attempt.' },
      { title: 'Learn the words', text: 'Learn the vocabulary of {t} early, so advice about {them} stops sounding like noise.' },
      { title: 'Expect mediocre', text: 'Expect your first results with {t} to be mediocre, and keep going anyway.' },
      { title: 'Ask someone ahead', text: 'Find one person further along with {t} and ask what they would skip.' },
      { title: 'Copy, then adapt', text: 'Copy a simple approach to {t} first, and adapt it once you see why it works.' },
      { title: 'Keep notes', text: 'Keep notes on {t} from the start; in a year you will want them.' },
    ],
    closes: ['What was the hardest part of getting started with {t}?', 'If you are new to {t}, what is your biggest question?'],
  },
  future: {
    hooks: ['{T} will look different a year from now.', '{T} matter{s} more now than {it} did two years ago, and here is why.', 'The cost of ignoring {t} keeps growing quietly.'],
    points: [
      { title: 'A head start', text: 'Teams that make {t} a habit now get a head start nobody can buy later.' },
      { title: 'Judgement wins', text: 'The tools around {t} keep getting cheaper, so judgement is what sets people apart.' },
      { title: 'Debt compounds', text: 'Every month without attention to {t} adds a little debt that compounds.' },
      { title: 'Rising expectations', text: 'Expectations of {t} are rising faster than most plans for {them}.' },
      { title: 'The long game', text: 'The long game with {t} is boring: small improvements, kept up for years.' },
      { title: 'A higher floor', text: 'What counts as good enough for {t} today will be the minimum tomorrow.' },
    ],
    closes: ['Where do you see {t} going next?', 'Is {t} on your plan for next year, or still on the wish list?'],
  },
  tools: {
    hooks: ['The tools that make {t} easier, and the ones that get in the way.', 'My current setup for {t}, kept deliberately small:', 'You need fewer tools for {t} than the marketing suggests.'],
    points: [
      { title: 'A shared document', text: 'A shared document beats a new platform for {t} until the process is clear.' },
      { title: 'The calendar', text: 'A calendar slot is still the most underrated tool for {t}.' },
      { title: 'Tools people use', text: 'Pick tools for {t} that your team will still open after the first week.' },
      { title: 'Automate last', text: 'Automate the repetitive parts of {t} only after doing them by hand.' },
      { title: 'One number', text: 'A dashboard for {t} with one number beats ten charts nobody reads.' },
      { title: 'Templates', text: 'Templates save more time on {t} than any clever integration.' },
    ],
    closes: ['Which tool for {t} could you not work without?', 'What is in your toolkit for {t} right now?'],
  },
};

export const HOOKS: Readonly<Record<string, readonly string[]>> = {
  professional: [
    'A few things I have learned about {t}.',
    '{T} {is} simpler than most playbooks make {them} look.',
    'What actually moves the needle with {t}:',
    'Here is how I think about {t} these days.',
  ],
  casual: ["Okay, let's talk about {t}.", 'Quick one on {t}.', 'Been thinking about {t} a lot lately.', 'Real talk about {t}.', 'Small reminder about {t}.'],
  friendly: ["Let's talk about {t} for a minute.", 'A few small things about {t} that helped me a lot.', 'Sharing what works for me with {t}.', "If {t} feel{s} overwhelming, you're not alone."],
  witty: ["{T}: easier said than done. Here's the done part.", "Everyone has an opinion on {t}. Here's mine, with fewer buzzwords.", '{T} {is} simple. Doing {them} every week is the hard part.'],
  bold: ['Most people get {t} wrong.', 'Stop overcomplicating {t}.', '{T} {is} not optional anymore.', 'Most advice about {t} is noise. Here is the signal.'],
  inspirational: ['{T} start{s} with one small step.', 'Everyone who is good at {t} was once a beginner.', 'Progress with {t} is built one ordinary day at a time.'],
  educational: ['{T}, explained in plain words.', 'A practical guide to {t}.', 'What to know about {t} before you start.', 'The fundamentals of {t}, in one post.'],
};

export const QUESTION_HOOKS: readonly string[] = [
  'What would change if you took {t} seriously this month?',
  'Why {does} {t} feel harder than {it} should?',
  "What's the one thing about {t} you wish you had known earlier?",
  'Is {t} on your priority list, or just on your wish list?',
];

export const STORY_OPENINGS: readonly string[] = [
  'When I started with {t}, I made most of the classic mistakes.',
  'A while ago I had to get serious about {t}.',
  'I used to think {t} {was} a side topic. I was wrong.',
];

export const STORY_TURNS: readonly string[] = ['What changed {t} for me was one simple idea.', 'The turning point with {t} was surprisingly small.', 'Then I tried a different approach to {t}.'];

/** Advice on any topic, each naming it; posts without an angle draw from here, threads and carousels too. */
export const POINTS: readonly Point[] = [
  { title: 'Start small', text: 'Pick one part of {t} and do it well before adding more.' },
  { title: 'Consistency wins', text: 'A little progress on {t} every week compounds; a burst once a quarter does not.' },
  { title: 'Measure it', text: 'Write down where {t} stand{s} today, or you will never know whether {it} improved.' },
  { title: 'Know your why', text: 'Say in one sentence why {t} matter{s} to you, and the busywork falls away.' },
  { title: 'Ask the people closest to it', text: 'The people closest to the work usually know where {t} break{s} first.' },
  { title: 'Remove before you add', text: 'Most gains in {t} come from removing steps, not adding them.' },
  { title: 'Teach it', text: 'Explaining {t} to a colleague shows you which parts you only thought you understood.' },
  { title: 'Give it an owner', text: 'Work on {t} without a named owner drifts within a month.' },
  { title: 'Make progress visible', text: 'Progress on {t} that nobody sees is easy to drop, so show it.' },
  { title: 'Review regularly', text: 'What worked for {t} six months ago deserves a fresh look today.' },
  { title: 'Keep feedback loops short', text: 'Short feedback loops make mistakes with {t} surface while they are still cheap.' },
  { title: 'Borrow before you build', text: 'Someone has already solved part of {t}; borrow before you build.' },
  { title: 'Outcomes over tools', text: 'Judge {t} by {its} results, not by the tools around {them}.' },
  { title: 'Protect the time', text: '{T} rarely happen{s} in the gaps between meetings, so block time for {them}.' },
  { title: 'Say no more often', text: 'Not every idea about {t} deserves your time.' },
  { title: 'One change at a time', text: 'Change one thing about {t} at a time, so you know what actually worked.' },
  { title: 'Numbers and stories', text: 'The numbers and the stories tell you different things about {t}; read both.' },
  { title: 'Make the first step tiny', text: 'Make the first step with {t} so small that starting never feels heavy.' },
  { title: 'Plan for maintenance', text: 'Maintenance is where {t} succeed{s} or fail{s}, so plan for the boring parts.' },
  { title: 'Keep a mistakes log', text: 'A log of what went wrong with {t} is the most useful document you will write about {them}.' },
  { title: 'Say it simply', text: 'If you cannot explain {t} in one sentence, keep simplifying.' },
  { title: 'Check your assumptions', text: 'Check your assumptions about {t} against real data once a quarter.' },
  { title: 'Learn in public', text: 'Sharing what you learn about {t} attracts people who can teach you more.' },
  { title: 'Think in seasons', text: '{T} {has} busy seasons and quiet ones; plan for both.' },
];

export const CTAS: readonly string[] = [
  "What's your experience with {t}? Tell me below.",
  'Save this for the next time {t} come{s} up.',
  'Which of these would you try first with {t}?',
  "Agree or disagree? I'd like to hear your take on {t}.",
  'How are you approaching {t} right now?',
  'Follow along for more on {t}.',
];

export const QUESTION_CTAS: readonly string[] = ['Curious how {t} look{s} from where you sit.', 'What would you add about {t}?', 'Where do you stand on {t}?'];

export const THREAD_OPENERS: readonly string[] = ['A thread on {t}', "Here's what I've learned about {t}", 'Let me break {t} down'];
export const THREAD_CLOSERS: readonly string[] = ["That's a wrap on {t}.", 'That is the short version of {t}.', 'Those are the ideas that matter most for {t}.'];

export const CAROUSEL_SUBTITLES: readonly string[] = ['{n} ideas worth keeping in mind', 'A practical guide in {n} slides', '{n} lessons, one slide each'];
export const CAROUSEL_CLOSING_TITLES: readonly string[] = ['Your turn', 'Over to you', 'Key takeaway'];
export const CAROUSEL_CAPTION_LEADS: readonly string[] = ['Swipe through the {n} slides on {t}.', 'I put the essentials of {t} into {n} slides.', 'Everything about {t} in {n} slides: swipe through.'];

/** Emoji per tone (used only with include_emoji and no rule against emoji). */
export const EMOJI: Readonly<Record<string, readonly string[]>> = {
  professional: ['📈', '💡', '✅', '🔍'],
  casual: ['👀', '🙌', '😅', '🔥'],
  friendly: ['😊', '🙌', '💬', '🤝'],
  witty: ['😏', '🙃', '🎯', '😅'],
  bold: ['🔥', '⚡', '🚀', '💥'],
  inspirational: ['✨', '🌱', '🚀', '🌟'],
  educational: ['📚', '💡', '🧠', '✍️'],
};

/** Hashtags a post carries when the voice profile has no habit to follow. */
export const DEFAULT_HASHTAG_COUNT: Readonly<Record<string, number>> = {
  twitter: 1,
  linkedin: 3,
  instagram: 5,
  tiktok: 4,
  bluesky: 1,
  mastodon: 2,
  threads: 1,
  pinterest: 3,
  tumblr: 3,
  facebook: 1,
  youtube: 3,
  google_business: 0,
  discord: 0,
  telegram: 1,
  slack: 0,
};
