import { AppError } from '@spa/errors';
import { MAX_SCHEDULE_DAYS } from '@spa/vocabulary';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stack } from '@spa/testing';
import { sharedStack } from '../support/shared-stack.js';

/**
 * The accounts side of preferences and subscriptions, over real gRPC to the accounts process. The public
 * /preferences routes (accounts plus generation's model list) and /billing are tested in their own files.
 */
let stack: Stack;
beforeAll(async () => {
  stack = await sharedStack();
});
afterAll(async () => {
  await stack?.stop();
});

const newWorkspace = async (tier = 'pro') => (await stack.accounts.createWorkspace({ name: 'Prefs', tier, subscriptionStatus: 'active' })).workspaceId;
const rejection = async (promise: Promise<unknown>): Promise<AppError> => {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
};

describe('preferences in accounts', () => {
  it('answers the defaults for a workspace that never set any', async () => {
    const workspaceId = await newWorkspace();
    const { preferences } = await stack.accounts.getPreferences({ workspaceId });
    expect(preferences).toMatchObject({
      tone: 'professional',
      includeEmoji: false,
      structure: 'auto',
      customRules: '',
      timezone: 'UTC',
      usePostMetricsForAi: true,
      theme: 'light',
      aiModel: '',
      emailNotifications: { postFailure: true, weeklyBriefing: true, productTips: true, reEngagement: true },
    });
    expect(preferences!.updatedAt).toMatch(/Z$/);
  });

  it('validate_only checks the patch and writes nothing', async () => {
    const workspaceId = await newWorkspace();
    const before = (await stack.accounts.getPreferences({ workspaceId })).preferences;
    const { preferences } = await stack.accounts.updatePreferences({ workspaceId, tone: 'casual', timezone: 'Asia/Tokyo', validateOnly: true });
    expect(preferences).toEqual(before);
    expect((await stack.accounts.getPreferences({ workspaceId })).preferences).toEqual(before);
    const refused = await stack.accounts.updatePreferences({ workspaceId, tone: 'grumpy', timezone: 'Asia/Tokyo', validateOnly: true }).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).details).toEqual([expect.stringMatching(/^tone: /)]);
  });

  it('merges: only the fields present change, the rest keep their values', async () => {
    const workspaceId = await newWorkspace();
    await stack.accounts.updatePreferences({ workspaceId, tone: 'casual', timezone: 'America/New_York', emailNotifications: { productTips: false } });
    const { preferences } = await stack.accounts.updatePreferences({ workspaceId, includeEmoji: true, emailNotifications: { reEngagement: false } });
    expect(preferences).toMatchObject({
      tone: 'casual',
      includeEmoji: true,
      timezone: 'America/New_York',
      structure: 'auto',
      theme: 'light',
      emailNotifications: { postFailure: true, weeklyBriefing: true, productTips: false, reEngagement: false },
    });
    expect((await stack.accounts.getPreferences({ workspaceId })).preferences).toEqual(preferences);
  });

  it('keeps every field when PATCHes of different fields race', async () => {
    const workspaceId = await newWorkspace();
    await Promise.all([
      stack.accounts.updatePreferences({ workspaceId, tone: 'bold' }),
      stack.accounts.updatePreferences({ workspaceId, includeEmoji: true }),
      stack.accounts.updatePreferences({ workspaceId, structure: 'story' }),
      stack.accounts.updatePreferences({ workspaceId, customRules: 'Write for engineers.' }),
      stack.accounts.updatePreferences({ workspaceId, timezone: 'Asia/Tokyo' }),
      stack.accounts.updatePreferences({ workspaceId, usePostMetricsForAi: false }),
      stack.accounts.updatePreferences({ workspaceId, theme: 'system' }),
      stack.accounts.updatePreferences({ workspaceId, aiModel: 'some-model' }),
      stack.accounts.updatePreferences({ workspaceId, emailNotifications: { postFailure: false } }),
      stack.accounts.updatePreferences({ workspaceId, emailNotifications: { weeklyBriefing: false } }),
    ]);
    expect((await stack.accounts.getPreferences({ workspaceId })).preferences).toMatchObject({
      tone: 'bold',
      includeEmoji: true,
      structure: 'story',
      customRules: 'Write for engineers.',
      timezone: 'Asia/Tokyo',
      usePostMetricsForAi: false,
      theme: 'system',
      aiModel: 'some-model',
      emailNotifications: { postFailure: false, weeklyBriefing: false, productTips: true, reEngagement: true },
    });
  });

  it('names every bad field at once and writes nothing, not even the good fields', async () => {
    const workspaceId = await newWorkspace();
    const err = await rejection(
      stack.accounts.updatePreferences({
        workspaceId,
        tone: 'angry',
        structure: 'poem',
        theme: 'neon',
        timezone: 'EST',
        aiModel: ' ',
        customRules: 'x'.repeat(5001),
        includeEmoji: true,
      }),
    );
    expect(err.code).toBe('INVALID_PARAMETERS');
    expect(err.details?.map((d) => d.split(':')[0]).sort()).toEqual(['ai_model', 'custom_rules', 'structure', 'theme', 'timezone', 'tone']);
    expect((await stack.accounts.getPreferences({ workspaceId })).preferences).toMatchObject({ includeEmoji: false, tone: 'professional' });
    expect((await rejection(stack.accounts.updatePreferences({ workspaceId, aiModel: 'm'.repeat(101) }))).details?.[0]).toMatch(/^ai_model:/);
    expect((await rejection(stack.accounts.updatePreferences({ workspaceId, timezone: 'Mars/Olympus' }))).details?.[0]).toMatch(/^timezone:/);
  });

  it("keeps each workspace's preferences to itself; an unknown workspace is NOT_FOUND", async () => {
    const a = await newWorkspace();
    const b = await newWorkspace();
    await stack.accounts.updatePreferences({ workspaceId: a, tone: 'witty' });
    expect((await stack.accounts.getPreferences({ workspaceId: b })).preferences?.tone).toBe('professional');
    expect((await rejection(stack.accounts.getPreferences({ workspaceId: 987_654_321 }))).code).toBe('NOT_FOUND');
    expect((await rejection(stack.accounts.updatePreferences({ workspaceId: 987_654_321, tone: 'witty' }))).code).toBe('NOT_FOUND');
  });
});

describe('subscription in accounts', () => {
  it('derives a monthly period end from creation, gives the plan horizon and the workspace time zone', async () => {
    const created = Date.now();
    const workspaceId = await newWorkspace('starter');
    await stack.accounts.updatePreferences({ workspaceId, timezone: 'Europe/Berlin' });
    const { subscription, timezone } = await stack.accounts.getSubscription({ workspaceId });
    expect(timezone).toBe('Europe/Berlin');
    expect(subscription).toMatchObject({ id: workspaceId, tier: 'starter', status: 'active', cancelAtPeriodEnd: false, maxScheduleDays: MAX_SCHEDULE_DAYS.starter });
    const end = Date.parse(subscription!.currentPeriodEnd);
    // One calendar month after creation: 28 to 31 days.
    expect(end - created).toBeGreaterThan(27.9 * 86_400_000);
    expect(end - created).toBeLessThan(31.1 * 86_400_000);
  });

  it('shows what the operator sets with the admin CLI (period end, cancel at period end, tier)', async () => {
    const workspaceId = await newWorkspace('pro');
    const set = await stack.admin(['subscription', 'set', '--workspace', String(workspaceId), '--tier', 'team', '--period-end', '2031-03-15T12:00:00Z', '--cancel-at-period-end', 'true']);
    expect(set.code, set.stderr).toBe(0);
    const shown = await stack.admin(['subscription', 'show', '--workspace', String(workspaceId)]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout)).toEqual({
      id: workspaceId,
      tier: 'team',
      status: 'active',
      current_period_end: '2031-03-15T12:00:00.000Z',
      cancel_at_period_end: true,
      max_schedule_days: MAX_SCHEDULE_DAYS.team,
      timezone: 'UTC',
    });
    const bad = await stack.admin(['subscription', 'set', '--workspace', String(workspaceId), '--period-end', 'next tuesday']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('current_period_end');
  });
});
