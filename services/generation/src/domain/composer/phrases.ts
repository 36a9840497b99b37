/**
 * The built-in composer's phrase bank. `{t}` is the subject mid-sentence, `{T}` the subject opening
 * a sentence, `{a}` the angle. Every sentence must read well for any noun-phrase subject.
 */

export const HOOKS: Readonly<Record<string, readonly string[]>> = {
  professional: [
    '{T} deserves more attention than it gets.',
    'A few thoughts on {t}.',
    "What I've learned about {t}:",
    'If {t} is on your list this quarter, read this.',
    'Here is how I think about {t}.',
    '{T}: what actually moves the needle.',
  ],
  casual: ["Okay, let's talk about {t}.", 'Quick one on {t}.', 'Been thinking about {t} a lot lately.', 'Real talk about {t}.', 'Small reminder about {t}.'],
  friendly: ["Let's talk about {t} for a minute.", 'A small thing about {t} that helped me a lot.', 'Sharing what works for me with {t}.', "If {t} feels overwhelming, you're not alone."],
  witty: [
    "{T}: easier said than done. Here's the done part.",
    "Everyone has an opinion on {t}. Here's mine, with fewer buzzwords.",
    '{T} is simple. Doing it every week is the hard part.',
    'Nobody puts "{t}" on their vision board. Maybe they should.',
  ],
  bold: ['Unpopular opinion: most people get {t} wrong.', 'Stop overcomplicating {t}.', '{T} is not optional anymore.', 'Most advice about {t} is noise. Here is the signal.'],
  inspirational: [
    '{T} starts with one small step.',
    'Every expert in {t} was once a beginner.',
    'The best time to start with {t} was yesterday. The next best time is today.',
    'Progress on {t} is built one ordinary day at a time.',
  ],
  educational: ['{T}, explained in plain words.', 'A practical guide to {t}.', 'What to know about {t} before you start.', 'The fundamentals of {t}, in one post.'],
};

export const QUESTION_HOOKS: readonly string[] = [
  'What would change if you took {t} seriously this month?',
  'Why does {t} feel harder than it should?',
  "What's the one thing about {t} you wish you had known earlier?",
  'Is {t} on your priority list, or just on your wish list?',
];

export const STORY_OPENINGS: readonly string[] = [
  'When I started with {t}, I made most of the classic mistakes.',
  'A while ago I had to get serious about {t}.',
  'I used to think {t} was a side topic. I was wrong.',
];

export const STORY_TURNS: readonly string[] = ['What changed things was one simple idea.', 'The turning point was surprisingly small.', 'Then I tried something different.'];

export const ANGLE_LEADS: readonly string[] = ['The angle most people miss: {a}.', 'Today, one specific part of it: {a}.', 'Let me focus on {a}.', 'Zooming in on {a}.'];

export interface Point {
  title: string;
  text: string;
}

export const POINTS: readonly Point[] = [
  { title: 'Start small', text: 'Pick one part of {t} and do it well before adding more.' },
  { title: 'Consistency wins', text: 'Consistency beats intensity: a little progress on {t} every week compounds.' },
  { title: 'Measure it', text: 'Measure what changes. Without a baseline, {t} is guesswork.' },
  { title: 'Know your why', text: 'Write down why {t} matters to you. It keeps the work from turning into busywork.' },
  { title: 'Ask the people closest to it', text: 'The people closest to the work usually know where {t} breaks.' },
  { title: 'Remove before you add', text: 'Most gains in {t} come from removing steps, not adding them.' },
  { title: 'Teach it', text: 'Explaining {t} to someone else sharpens your own thinking.' },
  { title: 'Give it an owner', text: 'Work on {t} without a clear owner tends to drift.' },
  { title: 'Expect a learning curve', text: 'Your first attempts at {t} will not be your best ones, and that is fine.' },
  { title: 'Make progress visible', text: 'Progress on {t} that nobody sees is easy to drop. Make it visible.' },
  { title: 'Review regularly', text: 'What worked for {t} six months ago may not work today. Review it regularly.' },
  { title: 'Keep feedback loops short', text: 'Short feedback loops make mistakes with {t} surface early, while they are cheap.' },
  { title: 'Borrow before you build', text: 'Someone has probably solved part of {t} already. Borrow before you build.' },
  { title: 'Outcomes over tools', text: 'Focus on outcomes, not tools. {T} is about results.' },
  { title: 'Document once, improve often', text: 'Document your process for {t} once, then improve it every time you repeat it.' },
  { title: "Don't wait for perfect", text: "Don't wait for perfect conditions to work on {t}. They never arrive." },
  { title: 'Listen to your audience', text: 'The questions people ask about {t} are your best roadmap.' },
  { title: 'Protect the time', text: '{T} rarely happens in the gaps between meetings. Block time for it.' },
  { title: 'Celebrate small wins', text: 'Small wins keep the momentum on {t} going. Notice them.' },
  { title: 'Say no more often', text: 'Not every idea about {t} deserves your time. Say no more often.' },
  { title: 'One change at a time', text: 'Change one thing about {t} at a time, so you know what actually worked.' },
  { title: 'Numbers and stories', text: 'Look at both the numbers and the stories. Each tells you something different about {t}.' },
  { title: 'Make the first step tiny', text: 'Make the first step so small that starting on {t} never feels heavy.' },
  { title: 'Find a partner', text: '{T} is easier with someone who holds you accountable.' },
  { title: 'Plan for maintenance', text: 'Plan for the boring parts: maintenance is where {t} succeeds or fails.' },
  { title: 'Keep a mistakes log', text: 'A list of what went wrong is the most useful document about {t} you will ever write.' },
  { title: 'Say it simply', text: "If you can't explain {t} in one sentence, keep simplifying." },
  { title: 'Check your assumptions', text: 'Check your assumptions about {t} against real data at least once a quarter.' },
  { title: 'Learn in public', text: 'Sharing what you learn about {t} attracts people who can teach you more.' },
  { title: 'Think in seasons', text: '{T} has busy seasons and quiet ones. Plan for both.' },
];

export const CTAS: readonly string[] = [
  "What's your experience with {t}? Tell me below.",
  'Save this for later and share it with someone who needs it.',
  'Which of these would you try first?',
  "Agree or disagree? I'd like to hear your take.",
  'If this helped, pass it on.',
  'How are you approaching {t} right now?',
  'Follow along for more on {t}.',
];

export const QUESTION_CTAS: readonly string[] = ['Curious to hear your answer.', 'What would you add?', 'Where do you stand on this?'];

export const THREAD_OPENERS: readonly string[] = ['A thread', "Here's what I've learned", 'Let me break it down', 'Thread'];
export const THREAD_CLOSERS: readonly string[] = ["That's a wrap on {t}.", 'That is the short version of {t}.', 'Those are the ideas that matter most for {t}.'];

export const CAROUSEL_SUBTITLES: readonly string[] = ['{n} ideas worth keeping in mind', 'A practical guide in {n} slides', '{n} lessons, one slide each'];
export const CAROUSEL_CLOSING_TITLES: readonly string[] = ['Your turn', 'Over to you', 'Key takeaway'];
export const CAROUSEL_CAPTION_LEADS: readonly string[] = ['Swipe through the {n} slides.', 'I put the essentials into {n} slides.', 'Everything in {n} slides: swipe through.'];

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
