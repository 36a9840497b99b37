import { createWorkspace, freshClientAddress, uniqueName, type HttpOptions, type Stack, type TestWorkspace } from '@spa/testing';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareReadBack } from '../../services/image-week/src/verify/compare.js';
import { OcrReader } from '../../services/image-week/src/verify/ocr.js';
import { expectError } from '../support/expect-error.js';
import { sharedStack } from '../support/shared-stack.js';

let stack: Stack;
let ws: TestWorkspace;
let instagram: number;
let pinterest: number;
const ocr = new OcrReader();

beforeAll(async () => {
  stack = await sharedStack();
  ws = await createWorkspace(stack, { tier: 'pro' });
  instagram = await connect(ws, 'instagram');
  pinterest = await connect(ws, 'pinterest');
}, 300_000);
afterAll(async () => {
  await ocr.close();
  await stack?.stop();
});

const call = (w: TestWorkspace, path: string, opts: HttpOptions = {}) => stack.api(path, { token: w.apiKey, localAddress: freshClientAddress(), ...opts });

/** Connects an account whose schedule has one enabled slot a day (10:00 UTC), so a week plans 7 cards. */
async function connect(w: TestWorkspace, platform: string, slotsPerDay = 1): Promise<number> {
  const { socialAccountId } = await stack.accounts.connectSocialAccount({ workspaceId: w.workspaceId, platform, username: uniqueName(platform), sandbox: true });
  const { postingSchedule } = await stack.accounts.getPostingSchedule({ workspaceId: w.workspaceId, socialAccountId });
  // Slots at least five hours away: no scheduled card comes due while the test runs (the shared stack publishes).
  const first = new Date().getUTCHours() + 6;
  const times = [first, first + 5, first + 9].slice(0, slotsPerDay).map((h) => `${String(h % 24).padStart(2, '0')}:00`);
  await stack.accounts.updatePostingSchedule({
    workspaceId: w.workspaceId,
    scheduleId: postingSchedule!.id,
    timezone: 'UTC',
    maxPostsPerDay: 5,
    paused: false,
    hasPostingSlots: true,
    postingSlots: [0, 1, 2, 3, 4, 5, 6].flatMap((day) => times.map((timeOfDay) => ({ dayOfWeek: day, timeOfDay, enabled: true }))),
  });
  return socialAccountId;
}

const runBody = (overrides: Record<string, unknown> = {}) => ({
  topic: 'focus and deep work',
  platform_config: { instagram: { social_account_id: instagram }, pinterest: { social_account_id: pinterest, board_id: '1001', link: 'https://example.com/focus' } },
  cutoff_days: 7,
  schedule_mode: 'scheduled',
  ...overrides,
});

async function waitFor(w: TestWorkspace, id: number, done: (run: Record<string, any>) => boolean, timeoutMs = 150_000): Promise<Record<string, any>> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await call(w, `/image_week_runs/${id}`);
    // A loaded machine can make one read miss the gateway's 5 s deadline; anything else fails the test.
    if (res.status === 503 && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 500));
      continue;
    }
    expect(res.status, res.text).toBe(200);
    if (done(res.json.image_week_run)) return res.json.image_week_run;
    if (Date.now() > until) throw new Error(`run ${id} did not reach the condition: ${res.text}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}
const finished = (r: Record<string, any>) => r.status !== 'pending';

describe('Quote Week through the gateway', () => {
  it('a run for Instagram and Pinterest completes: verified cards at the right size, posts with the media', async () => {
    const created = await call(ws, '/image_week_runs', { method: 'POST', body: runBody({ watermark_enabled: true, watermark_text: 'example.com', watermark_every_n: 2 }) });
    expect(created.status, created.text).toBe(201);
    const run0 = created.json.image_week_run;
    expect(run0).toMatchObject({ status: 'pending', topic: 'focus and deep work', cutoff_days: 7, schedule_mode: 'scheduled', dry_run: false, template_version: 'quote-cards-v1', items: [] });
    const run = await waitFor(ws, run0.id, finished);
    expect(run.status, JSON.stringify(run)).toBe('completed');
    expect(run.total_items).toBe(14);
    expect(run.completed_items + run.failed_items).toBe(14);
    expect(run.completed_items).toBeGreaterThanOrEqual(12);
    expect(run.images_generated).toBe(run.items.reduce((n: number, i: any) => n + i.attempt_count, 0));
    expect(run.est_cost_cents).toBe(0);
    expect(run.duration_ms).toBeGreaterThan(0);
    expect(run.shortfall_reason).toBeNull();
    const quotes = run.items.map((i: any) => i.quote);
    expect(new Set(quotes).size).toBe(quotes.length);
    const completed = run.items.filter((i: any) => i.status === 'completed');
    for (const item of completed.slice(0, 4)) {
      const expected = item.platform === 'pinterest' ? [1000, 1500] : [1080, 1350];
      expect([item.image.width, item.image.height]).toEqual(expected);
      const file = await fetch(item.image.url);
      expect(file.status).toBe(200);
      const png = Buffer.from(await file.arrayBuffer());
      const meta = await sharp(png).metadata();
      expect([meta.width, meta.height]).toEqual(expected);
      const read = await ocr.read(png);
      expect(compareReadBack(item.quote, read.text, { watermark: item.watermarked ? 'example.com' : undefined }).ok, read.text).toBe(true);
      const post = await call(ws, `/posts/${item.post_id}`);
      expect(post.status, post.text).toBe(200);
      expect(post.json.post).toMatchObject({ status: 'scheduled', source: 'quote_week', scheduled_at: item.scheduled_at });
      expect(post.json.post.post_contents[0].metadata.media).toEqual([{ r2_key: item.image.r2_key, type: 'image' }]);
      if (item.platform === 'pinterest') expect(post.json.post.post_contents[0].metadata).toMatchObject({ board_id: '1001', link: 'https://example.com/focus' });
    }
    // Every 2nd card of each account is watermarked.
    for (const platform of ['instagram', 'pinterest']) {
      const mine = run.items.filter((i: any) => i.platform === platform && i.status === 'completed');
      expect(mine.some((i: any) => i.watermarked)).toBe(true);
    }
    const list = await call(ws, '/image_week_runs?status=completed');
    expect(list.status, list.text).toBe(200);
    expect(list.json.image_week_runs.map((r: any) => r.id)).toContain(run0.id);
    expect(list.json.meta).toMatchObject({ limit: 20, offset: 0 });
  }, 400_000);

  it('names every bad field at once', async () => {
    const other = await createWorkspace(stack);
    const foreign = await connect(other, 'instagram');
    const res = await call(ws, '/image_week_runs', {
      method: 'POST',
      body: {
        topic: '',
        platform_config: { instagram: { social_account_id: foreign }, pinterest: { social_account_id: instagram, link: 'ftp://x' }, tiktok: {} },
        cutoff_days: 15,
        schedule_mode: 'later',
      },
    });
    expectError(res, 422, 'INVALID_PARAMETERS');
    const details: string = res.json.error.details.join('\n');
    for (const expected of [
      'topic',
      'tiktok',
      'platform_config.instagram.social_account_id',
      'board_id',
      'link: must be an http(s) URL',
      'is a instagram account, not pinterest',
      'cutoff_days',
      'schedule_mode',
    ])
      expect(details).toContain(expected);
    expectError(await call(ws, '/image_week_runs', { method: 'POST', body: { topic: 'x', platform_config: 'nope' } }), 422, 'INVALID_PARAMETERS');
    expectError(await call(ws, '/image_week_runs/999999'), 404, 'NOT_FOUND');
  });

  it('a dry run renders and verifies but creates no post and uses no monthly run', async () => {
    const starter = await createWorkspace(stack, { tier: 'starter' });
    const ig = await connect(starter, 'instagram');
    const res = await call(starter, '/image_week_runs', {
      method: 'POST',
      body: { topic: 'patience', platform_config: { instagram: { social_account_id: ig, aspect: 'square' } }, cutoff_days: 2, dry_run: true },
    });
    expect(res.status, res.text).toBe(201);
    const run = await waitFor(starter, res.json.image_week_run.id, finished);
    expect(run.status).toBe('completed');
    expect(run.total_items).toBe(2);
    for (const item of run.items.filter((i: any) => i.status === 'completed')) {
      expect(item.post_id).toBeNull();
      expect([item.image.width, item.image.height]).toEqual([1080, 1080]);
    }
    const posts = await call(starter, '/posts?status=draft,scheduled');
    expect(posts.json.posts).toEqual([]);
  }, 300_000);

  it('the monthly quota holds under 20 concurrent creates (4 on Starter) and dry runs stay exempt', async () => {
    const starter = await createWorkspace(stack, { tier: 'starter' });
    const ig = await connect(starter, 'instagram');
    // cutoff 1 day and a paused-free schedule: small runs.
    const body = { topic: 'grit', platform_config: { instagram: { social_account_id: ig } }, cutoff_days: 1, schedule_mode: 'draft' };
    const answers = await Promise.all(Array.from({ length: 20 }, () => call(starter, '/image_week_runs', { method: 'POST', body })));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(4);
    for (const a of answers.filter((x) => x.status !== 201)) expectError(a, 422, 'quota_exceeded');
    const dry = await call(starter, '/image_week_runs', { method: 'POST', body: { ...body, dry_run: true } });
    expect(dry.status, dry.text).toBe(201);
    const ids = answers.filter((a) => a.status === 201).map((a) => a.json.image_week_run.id);
    for (const id of ids) await call(starter, `/image_week_runs/${id}/cancel`, { method: 'POST' });
  }, 120_000);

  it('cancel stops a run; cancel of a finished run is a no-op; only failed items can be regenerated', async () => {
    // Accounts of their own: the first test's posts hold the other accounts' slots.
    const ig = await connect(ws, 'instagram');
    const pin = await connect(ws, 'pinterest');
    const res = await call(ws, '/image_week_runs', {
      method: 'POST',
      body: runBody({ schedule_mode: 'draft', platform_config: { instagram: { social_account_id: ig }, pinterest: { social_account_id: pin, board_id: '1002', link: 'https://example.com' } } }),
    });
    expect(res.status, res.text).toBe(201);
    const id = res.json.image_week_run.id;
    await waitFor(ws, id, (r) => r.total_items > 0);
    const canceled = await call(ws, `/image_week_runs/${id}/cancel`, { method: 'POST' });
    expect(canceled.status, canceled.text).toBe(200);
    expect(canceled.json.image_week_run.status).toBe('canceled');
    const atCancel = canceled.json.image_week_run.items;
    expect(atCancel.every((i: any) => ['completed', 'failed', 'canceled'].includes(i.status))).toBe(true);
    // Nothing more is posted after the cancel: wait past a card's time and compare.
    await new Promise((r) => setTimeout(r, 4_000));
    const later = (await call(ws, `/image_week_runs/${id}`)).json.image_week_run;
    expect(later.status).toBe('canceled');
    expect(later.items.filter((i: any) => i.post_id !== null).length).toBe(atCancel.filter((i: any) => i.post_id !== null).length);
    const again = await call(ws, `/image_week_runs/${id}/cancel`, { method: 'POST' });
    expect(again.status).toBe(200);
    expect(again.json.image_week_run.status).toBe('canceled');
    const item = later.items[0];
    expectError(await call(ws, `/image_week_runs/${id}/items/${item.id}/regenerate`, { method: 'POST' }), 422, 'INVALID_STATE');
  }, 180_000);
});
