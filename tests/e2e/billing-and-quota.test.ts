import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace, freshClientAddress, startStack, type HttpOptions, type Stack, type TestWorkspace } from '@spa/testing';
import { expectError } from '../support/expect-error.js';

/**
 * GET /billing/subscriptions/current and the daily AI generation quota through the real path: gateway → generation
 * (which counts) → accounts (plan and timezone). The limits are lowered by the operator override
 * DAILY_GENERATION_LIMITS so that a quota is exhausted in a few requests; the built-in composer writes.
 * The reset at the workspace's midnight is proven with a moved clock in services/generation/src/domain/quota.
 */
const LIMITS = { starter: 3, pro: 5 };
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ generationEnv: { DAILY_GENERATION_LIMITS: `starter:${LIMITS.starter},pro:${LIMITS.pro}` } });
});
afterAll(async () => {
  await stack?.stop();
});

const call = (ws: TestWorkspace, path: string, opts: HttpOptions = {}) => stack.api(path, { token: ws.apiKey, localAddress: freshClientAddress(), ...opts });
const billing = (ws: TestWorkspace) => call(ws, '/billing/subscriptions/current');
const generate = (ws: TestWorkspace) => call(ws, '/posts/generate', { body: { topic: 'Shipping small releases often', platform: 'linkedin' } });
const batch = (ws: TestWorkspace, count: number) => call(ws, '/posts/generate_batch', { body: { category: 'Team habits', count, platform: 'mastodon' } });
const nextMidnight = (zone: string) => DateTime.now().setZone(zone).plus({ days: 1 }).startOf('day').toUTC().toISO();

describe('GET /billing/subscriptions/current', () => {
  it("answers the subscription, the plan's quota and max_schedule_days", async () => {
    const ws = await createWorkspace(stack, { tier: 'pro' });
    const periodEnd = new Date(Date.now() + 10 * 86_400_000 + 3_600_000);
    await stack.accounts.setSubscription({ workspaceId: ws.workspaceId, currentPeriodEnd: periodEnd.toISOString(), cancelAtPeriodEnd: true });
    const res = await billing(ws);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({
      subscription: {
        id: expect.any(Number),
        status: 'active',
        current_period_end: periodEnd.toISOString(),
        cancel_at_period_end: true,
        days_until_renewal: 11,
      },
      tier: 'pro',
      quota: { tier: 'pro', daily_limit: LIMITS.pro, replies_used_today: 0, replies_remaining_today: LIMITS.pro, resets_at: nextMidnight('UTC') },
      max_schedule_days: 90,
    });
  });

  it("puts resets_at at the next midnight of the workspace's time zone", async () => {
    const ws = await createWorkspace(stack, { tier: 'starter' });
    expect((await billing(ws)).json.quota.resets_at).toBe(nextMidnight('UTC'));
    const res = await call(ws, '/preferences', { method: 'PATCH', body: { preferences: { timezone: 'Pacific/Kiritimati' } } });
    expect(res.status, res.text).toBe(200);
    // The plan and zone are reused for at most 5 s.
    await expect.poll(async () => (await billing(ws)).json.quota.resets_at, { timeout: 8_000, interval: 500 }).toBe(nextMidnight('Pacific/Kiritimati'));
  });

  it('is readable on a subscription that lapsed (to see why paid operations answer 403) and needs billing:read', async () => {
    const lapsed = await createWorkspace(stack, { tier: 'starter', status: 'past_due' });
    const res = await billing(lapsed);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ subscription: { status: 'past_due' }, tier: 'starter', max_schedule_days: 30 });
    expectError(await generate(lapsed), 403, 'NO_ACTIVE_SUBSCRIPTION');
    const noScope = await createWorkspace(stack, { scopes: ['posts:read'] });
    expectError(await billing(noScope), 403, 'INSUFFICIENT_SCOPE');
  });
});

describe('daily AI generation quota', () => {
  it('counts every generation, answers 429 DAILY_LIMIT_EXCEEDED with retry_after until midnight when exhausted', async () => {
    const ws = await createWorkspace(stack, { tier: 'starter' });
    for (let i = 0; i < LIMITS.starter; i++) {
      const res = await generate(ws);
      expect(res.status, res.text).toBe(200);
    }
    const summary = (await billing(ws)).json;
    expect(summary.quota).toMatchObject({ daily_limit: 3, replies_used_today: 3, replies_remaining_today: 0 });

    const refused = await generate(ws);
    expectError(refused, 429, 'DAILY_LIMIT_EXCEEDED');
    const untilReset = Math.ceil((Date.parse(summary.quota.resets_at) - Date.now()) / 1000);
    expect(Math.abs(refused.json.error.retry_after - untilReset)).toBeLessThanOrEqual(3);
    expect(refused.headers['retry-after']).toBe(String(refused.json.error.retry_after));
    expectError(await batch(ws, 1), 429, 'DAILY_LIMIT_EXCEEDED');
    expect((await billing(ws)).json.quota.replies_used_today).toBe(3);
  });

  it('counts a batch as its posts, all or none', async () => {
    const ws = await createWorkspace(stack, { tier: 'starter' });
    const two = await batch(ws, 2);
    expect(two.status, two.text).toBe(200);
    expect(two.json.posts).toHaveLength(2);
    expect((await billing(ws)).json.quota.replies_used_today).toBe(2);
    expectError(await batch(ws, 2), 429, 'DAILY_LIMIT_EXCEEDED');
    expect((await billing(ws)).json.quota.replies_used_today).toBe(2);
    expect((await generate(ws)).status).toBe(200);
    expect((await billing(ws)).json.quota).toMatchObject({ replies_used_today: 3, replies_remaining_today: 0 });
  });

  it('lets exactly the limit through when requests race', async () => {
    const ws = await createWorkspace(stack, { tier: 'pro' });
    const results = await Promise.all(Array.from({ length: 8 }, () => generate(ws)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(LIMITS.pro);
    const refused = results.filter((r) => r.status !== 200);
    expect(refused).toHaveLength(3);
    for (const r of refused) expectError(r, 429, 'DAILY_LIMIT_EXCEEDED');
    expect((await billing(ws)).json.quota.replies_used_today).toBe(LIMITS.pro);
  });

  it('keeps quotas per workspace, and an upgrade raises the limit the same day', async () => {
    const ws = await createWorkspace(stack, { tier: 'starter' });
    const neighbour = await createWorkspace(stack, { tier: 'starter' });
    for (let i = 0; i < LIMITS.starter; i++) expect((await generate(ws)).status).toBe(200);
    expectError(await generate(ws), 429, 'DAILY_LIMIT_EXCEEDED');
    expect((await billing(neighbour)).json.quota.replies_used_today).toBe(0);

    await stack.accounts.setSubscription({ workspaceId: ws.workspaceId, tier: 'pro' });
    await expect
      .poll(async () => (await billing(ws)).json.quota, { timeout: 8_000, interval: 500 })
      .toEqual(expect.objectContaining({ tier: 'pro', daily_limit: LIMITS.pro, replies_used_today: 3, replies_remaining_today: 2 }));
    expect((await generate(ws)).status).toBe(200);
  });
});
