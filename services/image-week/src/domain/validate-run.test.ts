import { describe, expect, it } from 'vitest';
import type { AccountsPort } from './ports.js';
import { handleWatermark, validateRun } from './validate-run.js';

const accounts: AccountsPort = {
  socialAccounts: async (_w, ids) => ids.map((id) => ({ id, platform: id === 2 ? 'pinterest' : 'instagram', username: id === 2 ? '@pins.daily' : 'quotes_daily', disconnected: false })),
  postingSchedule: async () => undefined,
  plan: async () => ({ tier: 'pro', timezone: 'UTC' }),
};

const config = { instagram: { social_account_id: 1 }, pinterest: { social_account_id: 2, board_id: '1001', link: 'https://example.com' } };

describe("a run's watermark", () => {
  it("without watermark_text, each account's cards carry its @handle (the run's text stays unset)", async () => {
    const run = await validateRun(accounts, 7, { topic: 'focus', platformConfig: config, watermarkEnabled: true });
    expect(run.watermarkText).toBeUndefined();
    expect(run.targets.map((t) => [t.platform, t.watermark])).toEqual([
      ['instagram', '@quotes_daily'],
      ['pinterest', '@pins.daily'],
    ]);
  });

  it('with watermark_text, that text; without the watermark, no handle either', async () => {
    const given = await validateRun(accounts, 7, { topic: 'focus', platformConfig: config, watermarkEnabled: true, watermarkText: ' example.com ' });
    expect([given.watermarkText, given.targets.map((t) => t.watermark)]).toEqual(['example.com', [undefined, undefined]]);
    const off = await validateRun(accounts, 7, { topic: 'focus', platformConfig: config });
    expect([off.watermarkEnabled, off.targets.map((t) => t.watermark)]).toEqual([false, [undefined, undefined]]);
  });

  it('a handle is cut to the watermark limit', () => {
    expect(handleWatermark('a'.repeat(100))).toBe(`@${'a'.repeat(59)}`);
  });
});
