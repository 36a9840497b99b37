import { describe, expect, it } from 'vitest';
import { checkRules, parseRules, repairForRules } from './rules.js';

describe('custom rule checker', () => {
  it('recognises the documented patterns and keeps every text as an instruction', () => {
    const rules = parseRules([
      'Never use "leverage". Avoid ‘synergy’. Don\'t mention "competitors"',
      'Always include "#acme" and be kind.',
      "Always end with 'Cheers, Ana'",
      'Start every post with "Hey team"',
      'No emoji please. Max 2 hashtags.',
      'Write like a human.',
    ]);
    expect(rules.forbidden).toEqual(['leverage', 'synergy', 'competitors']);
    expect(rules.required).toEqual(['#acme']);
    expect(rules.endsWith).toBe('Cheers, Ana');
    expect(rules.startsWith).toBe('Hey team');
    expect(rules.noEmoji).toBe(true);
    expect(rules.maxHashtags).toBe(2);
    expect(rules.instructions).toHaveLength(6);
    expect(parseRules(['no hashtags']).maxHashtags).toBe(0);
    expect(parseRules(['Be concise and friendly']).forbidden).toEqual([]);
  });

  it('checks whole words and whole hashtags, case-insensitively', () => {
    const rules = parseRules(['Never use "AI"', 'Always include "#acme"']);
    expect(checkRules('We said ai once. #acme', rules)).toEqual(['uses "AI", which a rule forbids']);
    expect(checkRules('Maintain the chain. #acme', rules)).toEqual([]);
    expect(checkRules('Nothing here #acmecorp', rules)).toEqual(['lacks "#acme", which a rule requires']);
  });

  it('repairs what is mechanical (emoji, extra hashtags, required ending) and leaves forbidden words to regeneration', () => {
    const rules = parseRules(['No emoji. Max 1 hashtag. Always end with "#acme". Never use "cheap"']);
    const repaired = repairForRules('Great news 🚀🔥 for everyone #one #two #three', rules);
    expect(repaired).toBe('Great news for everyone\n\n#acme');
    expect(checkRules(repaired, rules)).toEqual([]);
    expect(checkRules(repairForRules('A cheap trick', rules), rules)).toEqual(['uses "cheap", which a rule forbids']);
  });
});
