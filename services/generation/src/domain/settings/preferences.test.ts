import { describe, expect, it } from 'vitest';
import { ModelCatalog, parseModelEntry } from '../models/catalog.js';
import { daysUntil } from './billing-summary.js';
import type { StoredPreferences } from './model.js';
import { preferencesProblems, presentPreferences } from './preferences.js';

const catalog = new ModelCatalog([parseModelEntry('acme-large:Acme Large:true:1500'), parseModelEntry('acme-small')]);
const stored: StoredPreferences = {
  tone: 'professional',
  includeEmoji: false,
  structure: 'auto',
  customRules: '',
  timezone: 'UTC',
  usePostMetricsForAi: true,
  theme: 'light',
  aiModel: '',
  emailNotifications: { postFailure: true, weeklyBriefing: true, productTips: true, reEngagement: true },
};

describe('presenting preferences', () => {
  it('shows the effective model: the stored choice while offered, else the default', () => {
    expect(presentPreferences(stored, catalog).aiModel).toBe('acme-large');
    expect(presentPreferences({ ...stored, aiModel: 'acme-small' }, catalog).aiModel).toBe('acme-small');
    expect(presentPreferences({ ...stored, aiModel: 'retired-model' }, catalog).aiModel).toBe('acme-large');
    expect(presentPreferences(stored, new ModelCatalog([])).aiModel).toBe('builtin-composer');
  });

  it('lists every model of the catalog, the built-in composer included', () => {
    expect(presentPreferences(stored, catalog).availableAiModels.map((m) => m.id)).toEqual(['acme-large', 'acme-small', 'builtin-composer']);
  });
});

describe('checking a patch', () => {
  it('accepts good values and an empty patch', () => {
    expect(preferencesProblems({}, catalog)).toEqual([]);
    expect(preferencesProblems({ tone: 'witty', structure: 'list', theme: 'dark', timezone: 'Asia/Kolkata', aiModel: 'builtin-composer', customRules: 'x'.repeat(5000) }, catalog)).toEqual([]);
  });

  it('names each bad field once, all at once', () => {
    const problems = preferencesProblems({ tone: 'grumpy', structure: 'sonnet', theme: 'neon', timezone: 'Not/AZone', aiModel: 'gpt-9', customRules: 'x'.repeat(5001), includeEmoji: true }, catalog);
    expect(problems.map((p) => p.split(':')[0])).toEqual([
      'preferences.tone',
      'preferences.structure',
      'preferences.theme',
      'preferences.timezone',
      'preferences.custom_rules',
      'preferences.ai_model',
    ]);
    expect(problems[5]).toContain('acme-large, acme-small, builtin-composer');
  });
});

describe('days until renewal', () => {
  const now = new Date('2026-05-01T12:00:00Z');
  it('rounds up to whole days and is 0 once the period has ended or is unknown', () => {
    expect(daysUntil(now, new Date('2026-05-11T13:00:00Z'))).toBe(11);
    expect(daysUntil(now, new Date('2026-05-11T12:00:00Z'))).toBe(10);
    expect(daysUntil(now, new Date('2026-05-01T12:00:01Z'))).toBe(1);
    expect(daysUntil(now, new Date('2026-04-30T12:00:00Z'))).toBe(0);
    expect(daysUntil(now, undefined)).toBe(0);
  });
});
