import { describe, expect, it } from 'vitest';
import { ModelCatalog, parseModelEntry } from '../models/catalog.js';
import { resolveAiModel } from './ai-model.js';
import { daysUntil } from './billing-summary.js';

const catalog = new ModelCatalog([parseModelEntry('acme-large:Acme Large:true:1500'), parseModelEntry('acme-small')]);

describe('resolving a workspace ai_model', () => {
  it('gives the effective model: the stored choice while offered, else the default', () => {
    expect(resolveAiModel(catalog, '').effectiveAiModel).toBe('acme-large');
    expect(resolveAiModel(catalog, 'acme-small').effectiveAiModel).toBe('acme-small');
    expect(resolveAiModel(catalog, 'retired-model').effectiveAiModel).toBe('acme-large');
    expect(resolveAiModel(new ModelCatalog([]), '').effectiveAiModel).toBe('builtin-composer');
  });

  it('lists every model of the catalog, the built-in composer included', () => {
    expect(resolveAiModel(catalog, '').availableAiModels.map((m) => m.id)).toEqual(['acme-large', 'acme-small', 'builtin-composer']);
  });

  it('accepts an offered model or none, and names ai_model with the choices otherwise', () => {
    expect(resolveAiModel(catalog, '').aiModelProblem).toBe('');
    expect(resolveAiModel(catalog, 'builtin-composer').aiModelProblem).toBe('');
    const problem = resolveAiModel(catalog, 'gpt-9').aiModelProblem;
    expect(problem.split(':')[0]).toBe('ai_model');
    expect(problem).toContain('acme-large, acme-small, builtin-composer');
    expect(problem).toContain('"gpt-9"');
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
