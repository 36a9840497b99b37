/** Sub-angles that keep a batch's posts on one category apart from each other. */
export const BATCH_ANGLES: readonly string[] = [
  'the most common mistakes',
  'a lesson learned the hard way',
  'a quick how-to',
  'a myth worth busting',
  'what changes next',
  'a simple checklist',
  'what happens behind the scenes',
  'what beginners should know first',
  'the tools that help',
  'a counter-intuitive take',
  'how to measure it',
  'the very first step',
  'what to stop doing',
  'a small experiment to try',
  'why it matters now',
  "what I'd do differently",
  'how good teams get it right',
  'the cost of ignoring it',
  'one habit that helps',
  'the questions to ask first',
  'the long game',
  'doing more with less',
];

/** `count` different angles (cycling when more are asked than exist), rotated by `seed`. */
export function batchAngles(count: number, seed: number): string[] {
  return Array.from({ length: count }, (_, i) => BATCH_ANGLES[(seed + i) % BATCH_ANGLES.length]!);
}
