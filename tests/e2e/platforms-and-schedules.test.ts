import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace, freshClientAddress, type HttpOptions, type Stack, type TestWorkspace } from '@spa/testing';
import { expectError } from '../support/expect-error.js';
import { sharedStack } from '../support/shared-stack.js';

let stack: Stack;
let ws: TestWorkspace;
beforeAll(async () => {
  stack = await sharedStack();
  ws = await createWorkspace(stack);
});
afterAll(async () => {
  await stack?.stop();
});

const call = (path: string, opts: HttpOptions = {}) => stack.api(path, { token: ws.apiKey, localAddress: freshClientAddress(), ...opts });
const connect = async (platform: string) => (await stack.accounts.connectSocialAccount({ workspaceId: ws.workspaceId, platform, username: `${platform}-user`, sandbox: true })).socialAccountId;

describe('GET /platforms', () => {
  it('lists all 15 platforms with per-platform truth in content_types', async () => {
    const res = await call('/platforms');
    expect(res.status).toBe(200);
    const byName = Object.fromEntries(res.json.platforms.map((p: { platform: string }) => [p.platform, p]));
    expect(Object.keys(byName)).toHaveLength(15);
    for (const p of res.json.platforms) {
      if (p.content_types.includes('document')) expect(p.platform).toBe('linkedin');
      if (p.content_types.includes('poll')) expect(['twitter', 'linkedin']).toContain(p.platform);
    }
    for (const name of ['instagram', 'pinterest', 'tiktok', 'youtube']) {
      expect(byName[name].media_required).toBe(true);
      expect(byName[name].content_types).not.toContain('text');
    }
    expect(byName.youtube).not.toHaveProperty('max_images');
    expect(byName.twitter).toMatchObject({ character_limit: 280, counting: 'weighted', max_images: 4 });
    expect(byName.bluesky).toMatchObject({ character_limit: 300, counting: 'graphemes' });
  });
});

describe('capability validation of posts', () => {
  it('refuses content that breaks a platform, one detail per problem naming the platform, and stores nothing', async () => {
    const x = await connect('twitter');
    const ig = await connect('instagram');
    const bsky = await connect('bluesky');
    const before = (await call('/posts?status=draft,scheduled')).json.meta.total_count;
    const res = await call('/posts', {
      body: {
        post: {
          body: 'x'.repeat(281),
          post_contents: [
            { platform: 'bluesky', body: '👨‍👩‍👧'.repeat(301) },
            { platform: 'instagram', body: 'caption', content_type: 'image' },
          ],
          post_accounts: [{ social_account_id: x }, { social_account_id: ig }, { social_account_id: bsky }],
        },
      },
    });
    expectError(res, 422, 'INVALID_PARAMETERS');
    const details: string[] = res.json.error.details;
    expect(details.some((d) => d.includes('twitter') && d.includes('281') && d.includes('280'))).toBe(true);
    expect(details.some((d) => d.startsWith('post_contents[0]') && d.includes('bluesky') && d.includes('301'))).toBe(true);
    expect(details.some((d) => d.startsWith('post_contents[1]') && d.includes('instagram'))).toBe(true);
    expect((await call('/posts?status=draft,scheduled')).json.meta.total_count).toBe(before);
  });

  it('counts X the weighted way: a long URL counts 23', async () => {
    const x = await connect('twitter');
    const text = `${'a'.repeat(250)} https://example.com/${'p'.repeat(200)}`;
    const res = await call('/posts', { body: { post: { body: text, post_accounts: [{ social_account_id: x }] } } });
    expect(res.status, res.text).toBe(201);
  });

  it('accepts an Instagram image post with media and infers its content type', async () => {
    const ig = await connect('instagram');
    const res = await call('/posts', {
      body: {
        post: { body: '', post_contents: [{ platform: 'instagram', body: 'Look', metadata: { media: [{ r2_key: 'ws/1/a.jpg', type: 'image' }] } }], post_accounts: [{ social_account_id: ig }] },
      },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.json.post.post_contents[0].content_type).toBe('image');
  });
});

describe('posting schedules and next slot', () => {
  it('gives every account a schedule, updates it with validation, and finds the next free slot', async () => {
    const li = await connect('linkedin');
    const list = await call('/posting_schedules');
    expect(list.status).toBe(200);
    const schedule = list.json.posting_schedules.find((s: { social_account_id: number }) => s.social_account_id === li);
    expect(schedule).toMatchObject({ timezone: 'UTC', paused: false });
    expect(schedule.posting_slots.length).toBeGreaterThan(0);

    const bad = await call(`/posting_schedules/${schedule.id}`, {
      method: 'PATCH',
      body: {
        posting_schedule: {
          timezone: 'Mars/Olympus',
          posting_slots: [
            { day_of_week: 1, time_of_day: '09:00' },
            { day_of_week: 1, time_of_day: '09:00' },
          ],
        },
      },
    });
    expectError(bad, 422, 'INVALID_PARAMETERS');
    expect(bad.json.error.details.some((d: string) => d.includes('timezone'))).toBe(true);
    expect(bad.json.error.details.some((d: string) => d.includes('posting_slots[1]'))).toBe(true);

    // One slot a day at the next whole hour (UTC) two hours ahead, in UTC: easy to predict.
    const at = new Date(Date.now() + 2 * 3_600_000);
    at.setUTCMinutes(0, 0, 0);
    const hhmm = `${String(at.getUTCHours()).padStart(2, '0')}:00`;
    const updated = await call(`/posting_schedules/${schedule.id}`, {
      method: 'PATCH',
      body: { posting_schedule: { timezone: 'UTC', max_posts_per_day: 1, posting_slots: [0, 1, 2, 3, 4, 5, 6].map((d) => ({ day_of_week: d, time_of_day: hhmm })) } },
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.json.posting_schedule.posting_slots.every((s: { source: string }) => s.source === 'manual')).toBe(true);

    const first = await call(`/posts/next_slot?social_account_id=${li}`);
    expect(first.status, first.text).toBe(200);
    expect(first.json.next_slot).toEqual({ scheduled_at: at.toISOString(), social_account_id: li, timezone: 'UTC', posting_schedule_id: schedule.id });

    // Taking that slot moves the next one to the same time tomorrow.
    await call('/posts', { body: { post: { body: 'taken', scheduled_at: at.toISOString(), post_accounts: [{ social_account_id: li }] } } });
    const second = await call(`/posts/next_slot?social_account_id=${li}`);
    expect(second.json.next_slot.scheduled_at).toBe(new Date(at.getTime() + 86_400_000).toISOString());

    await call(`/posting_schedules/${schedule.id}`, { method: 'PATCH', body: { posting_schedule: { paused: true } } });
    expect((await call(`/posts/next_slot?social_account_id=${li}`)).json.next_slot.scheduled_at).toBeNull();
  });

  it("answers 404 for another workspace's account and 422 for a bad id", async () => {
    const other = await createWorkspace(stack);
    const theirs = (await stack.accounts.connectSocialAccount({ workspaceId: other.workspaceId, platform: 'twitter', username: 't', sandbox: true })).socialAccountId;
    expectError(await call(`/posts/next_slot?social_account_id=${theirs}`), 404, 'NOT_FOUND');
    expectError(await call('/posts/next_slot?social_account_id=abc'), 422, 'INVALID_PARAMETERS');
    expectError(await call('/posts/next_slot'), 422, 'INVALID_PARAMETERS');
  });
});

describe('posting schedules under racing PATCHes', () => {
  it('applies every one of concurrent PATCHes, keeps one whole slot list, and next_slot follows the result', async () => {
    const account = await connect('bluesky');
    const schedule = (await call('/posting_schedules')).json.posting_schedules.find((s: { social_account_id: number }) => s.social_account_id === account);
    const slotTimes = ['01:30', '02:30', '03:30', '04:30', '05:30', '06:30'];
    const bodies = [{ timezone: 'Asia/Tokyo' }, { max_posts_per_day: 9 }, ...slotTimes.map((time) => ({ posting_slots: [0, 1, 2, 3, 4, 5, 6].map((d) => ({ day_of_week: d, time_of_day: time })) }))];
    const answers = await Promise.all(bodies.map((b) => call(`/posting_schedules/${schedule.id}`, { method: 'PATCH', body: { posting_schedule: b } })));
    for (const a of answers) expect(a.status, a.text).toBe(200);

    const final = (await call('/posting_schedules')).json.posting_schedules.find((s: { id: number }) => s.id === schedule.id);
    expect(final).toMatchObject({ timezone: 'Asia/Tokyo', max_posts_per_day: 9, paused: false });
    // The slot list (ids included) of exactly one slot PATCH, not a mix.
    expect(answers.slice(2).map((a) => a.json.posting_schedule.posting_slots)).toContainEqual(final.posting_slots);
    const time: string = final.posting_slots[0].time_of_day;

    // The posts service reads the schedule through accounts: its next slot is at that time, in Tokyo, within a day.
    const next = (await call(`/posts/next_slot?social_account_id=${account}`)).json.next_slot;
    expect(next).toMatchObject({ timezone: 'Asia/Tokyo', social_account_id: account, posting_schedule_id: schedule.id });
    const at = new Date(next.scheduled_at);
    expect(new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Tokyo', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at)).toBe(time);
    expect(at.getTime() - Date.now()).toBeGreaterThan(0);
    expect(at.getTime() - Date.now()).toBeLessThanOrEqual(86_400_000);
  });
});
