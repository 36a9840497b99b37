import { randomBytes } from 'node:crypto';
import type { Connection } from '@spa/mongo';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, revokeApiKey } from '../domain/api-keys.js';
import { authenticate } from '../domain/authenticate.js';
import type { PostingSchedule } from '../domain/model.js';
import type { AccountsDeps } from '../domain/ports.js';
import { getPostingSchedule, listPostingSchedules, updatePostingSchedule, type SchedulePatch } from '../domain/posting-schedules.js';
import { connectSocialAccount } from '../domain/social-accounts.js';
import { addMember, createUser, removeMember } from '../domain/users.js';
import { createWorkspace, getWorkspace, setReviewRequired, setSubscription } from '../domain/workspaces.js';
import { openAccountsStore } from '../../../../tests/support/accounts-store.js';

// FerretDB 1.x applies concurrent updates of one document non-atomically (an update filtered on the old
// value is no compare-and-set); these races are what the accounts store must get exactly right anyway.

let connection: Connection;
let deps: AccountsDeps;
let close: (() => Promise<void>) | undefined;
beforeAll(async () => {
  ({ connection, deps, close } = await openAccountsStore('t_acc_race'));
});
afterAll(() => close?.());

const slotsOf = (s: PostingSchedule) => s.postingSlots.map(({ id, dayOfWeek, timeOfDay, enabled, source }) => ({ id, dayOfWeek, timeOfDay, enabled, source }));
const codeOf = (r: PromiseSettledResult<unknown>) => (r.status === 'rejected' ? (r.reason as { code?: string }).code : 'ok');

async function newSchedule(): Promise<{ workspaceId: number; schedule: PostingSchedule }> {
  const { workspaceId } = await createWorkspace(deps, { name: 'Sched', tier: 'pro' });
  const accountId = await connectSocialAccount(deps, { workspaceId, platform: 'linkedin', username: 'me', sandbox: true });
  return { workspaceId, schedule: await getPostingSchedule(deps, workspaceId, accountId) };
}

describe('posting schedules under racing PATCHes', () => {
  it('keeps every field change of 10 concurrent PATCHes; the slots are those of exactly one of them', async () => {
    const { workspaceId, schedule } = await newSchedule();
    const slotPatches: SchedulePatch[] = Array.from({ length: 6 }, (_, i) => ({
      postingSlots: [
        { dayOfWeek: i, timeOfDay: `1${i}:00` },
        { dayOfWeek: (i + 1) % 7, timeOfDay: `0${i}:30`, enabled: i % 2 === 0 },
      ],
    }));
    const fieldPatches: SchedulePatch[] = [{ timezone: 'Europe/Berlin' }, { maxPostsPerDay: 7 }, { paused: true }, { timezone: 'Europe/Berlin', maxPostsPerDay: 7 }];
    const answers = await Promise.all([...fieldPatches, ...slotPatches].map((p) => updatePostingSchedule(deps, workspaceId, schedule.id, p)));

    // Each answer shows its own change.
    answers.slice(0, 4).forEach((a, i) => expect(a).toMatchObject(fieldPatches[i]!));
    const slotAnswers = answers.slice(4);
    slotAnswers.forEach((a, i) => expect(a.postingSlots.map((s) => [s.dayOfWeek, s.timeOfDay])).toEqual(slotPatches[i]!.postingSlots!.map((s) => [s.dayOfWeek, s.timeOfDay])));

    const final = await getPostingSchedule(deps, workspaceId, schedule.socialAccountId);
    expect(final).toMatchObject({ id: schedule.id, timezone: 'Europe/Berlin', maxPostsPerDay: 7, paused: true });
    // Not interleaved: the whole slot list (ids included) of one PATCH, the last one in the serial order.
    expect(slotAnswers.map(slotsOf)).toContainEqual(slotsOf(final));
    expect((await listPostingSchedules(deps, workspaceId)).find((s) => s.id === schedule.id)).toEqual(final);
  });

  it('ends with exactly one whole slot list when 10 PATCHes replace the slots at once', async () => {
    const { workspaceId, schedule } = await newSchedule();
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        updatePostingSchedule(deps, workspaceId, schedule.id, {
          postingSlots: Array.from({ length: 7 }, (_, d) => ({ dayOfWeek: d, timeOfDay: `${String(i + 8).padStart(2, '0')}:15` })),
        }),
      ),
    );
    const final = await getPostingSchedule(deps, workspaceId, schedule.socialAccountId);
    expect(final.postingSlots).toHaveLength(7);
    expect(new Set(final.postingSlots.map((s) => s.timeOfDay)).size).toBe(1);
    expect(answers.map(slotsOf)).toContainEqual(slotsOf(final));
    expect(final).toMatchObject({ timezone: 'UTC', maxPostsPerDay: 3, paused: false });
  });

  it('reads a schedule stored before revisions existed as revision 0, and changes it from there', async () => {
    const { workspaceId } = await createWorkspace(deps, { name: 'Legacy', tier: 'pro' });
    const at = new Date('2025-01-02T03:04:05.000Z');
    // The shape the old code wrote: the whole schedule in one posting_schedules document.
    await connection.collection('posting_schedules').insertOne({
      _id: 990_001 as never,
      workspace_id: workspaceId,
      social_account_id: 990_002,
      timezone: 'America/New_York',
      max_posts_per_day: 2,
      paused: false,
      posting_slots: [{ id: 990_003, day_of_week: 2, time_of_day: '08:45', enabled: true, source: 'manual' }],
      updated_at: at,
    });
    const legacy: PostingSchedule = {
      id: 990_001,
      workspaceId,
      socialAccountId: 990_002,
      timezone: 'America/New_York',
      maxPostsPerDay: 2,
      paused: false,
      postingSlots: [{ id: 990_003, dayOfWeek: 2, timeOfDay: '08:45', enabled: true, source: 'manual' }],
      updatedAt: at,
    };
    expect(await getPostingSchedule(deps, workspaceId, 990_002)).toEqual(legacy);
    expect(await listPostingSchedules(deps, workspaceId)).toEqual([legacy]);

    await Promise.all([updatePostingSchedule(deps, workspaceId, 990_001, { paused: true }), updatePostingSchedule(deps, workspaceId, 990_001, { maxPostsPerDay: 5 })]);
    const changed = await getPostingSchedule(deps, workspaceId, 990_002);
    expect(changed).toMatchObject({ ...legacy, paused: true, maxPostsPerDay: 5, updatedAt: expect.any(Date) });
    expect(changed.updatedAt.getTime()).toBeGreaterThan(at.getTime());
  });

  it('writes nothing for an invalid PATCH and answers 404 for a schedule of another workspace', async () => {
    const { workspaceId, schedule } = await newSchedule();
    const { workspaceId: other } = await createWorkspace(deps, { name: 'Other', tier: 'pro' });
    await expect(updatePostingSchedule(deps, workspaceId, schedule.id, { timezone: 'Mars/Olympus', paused: true })).rejects.toMatchObject({
      code: 'INVALID_PARAMETERS',
    });
    await expect(updatePostingSchedule(deps, other, schedule.id, { paused: true })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await getPostingSchedule(deps, workspaceId, schedule.socialAccountId)).toEqual(schedule);
  });
});

describe('API keys under racing revokes and creates', () => {
  it('lets exactly one of 10 concurrent revokes revoke the active key', async () => {
    const { workspaceId } = await createWorkspace(deps, { name: 'Revokes', tier: 'pro' });
    const { keyId, apiKey } = await createApiKey(deps, { workspaceId, scopes: ['all'] });
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => revokeApiKey(deps, workspaceId)));
    expect(results.filter((r) => r.status === 'fulfilled').map((r) => r.value)).toEqual([keyId]);
    expect(results.map(codeOf).filter((c) => c !== 'ok')).toEqual(Array(9).fill('NOT_FOUND'));
    await expect(authenticate(deps, apiKey)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(createApiKey(deps, { workspaceId, scopes: ['all'] })).resolves.toMatchObject({ keyId: expect.any(Number) });
  });

  it('keeps exactly one active key when clients rotate (revoke, then create) at once, every answer true', async () => {
    const { workspaceId } = await createWorkspace(deps, { name: 'Rotate', tier: 'pro' });
    const first = await createApiKey(deps, { workspaceId, scopes: ['all'] });
    const rotations = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const revoked = await revokeApiKey(deps, workspaceId).then(
          (id) => id,
          (err: { code: string }) => err.code,
        );
        const created = await createApiKey(deps, { workspaceId, scopes: ['all'] }).then(
          (k) => k,
          (err: { code: string }) => err.code,
        );
        return { revoked, created };
      }),
    );
    const revoked = rotations.map((r) => r.revoked).filter((r): r is number => typeof r === 'number');
    const created = rotations.map((r) => r.created).filter((c) => typeof c === 'object');
    expect(rotations.every((r) => typeof r.revoked === 'number' || r.revoked === 'NOT_FOUND')).toBe(true);
    expect(rotations.every((r) => typeof r.created === 'object' || r.created === 'API_KEY_LIMIT_REACHED')).toBe(true);

    const keys = await connection.collection<{ _id: number; slot: string }>('api_keys').find({ workspace_id: workspaceId }).toArray();
    const active = keys.filter((k) => k.slot.startsWith('active:'));
    expect(active).toHaveLength(1);
    // Each key is revoked by one answer only, and each answered revoke really revoked that key.
    expect(new Set(revoked).size).toBe(revoked.length);
    expect([...revoked].sort((a, b) => a - b)).toEqual(
      keys
        .filter((k) => !k.slot.startsWith('active:'))
        .map((k) => k._id)
        .sort((a, b) => a - b),
    );
    // Keys in = keys out: the first one plus every created one, less every revoked one, is the one active key.
    expect(1 + created.length - revoked.length).toBe(1);
    expect(revoked).toContain(first.keyId);
  });

  it('refuses a key whose revoke stopped after recording the revocation, and finishes that revoke', async () => {
    const { workspaceId } = await createWorkspace(deps, { name: 'Half revoked', tier: 'pro' });
    const { keyId, apiKey } = await createApiKey(deps, { workspaceId, scopes: ['all'] });
    // What a revoke that crashed between its two steps leaves: the revocation, the slot still held.
    await connection.collection('api_key_revocations').insertOne({ _id: keyId as never, workspace_id: workspaceId, revoked_at: new Date() });
    await expect(authenticate(deps, apiKey)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    const key = await connection.collection<{ _id: number; slot: string }>('api_keys').findOne({ _id: keyId });
    expect(key?.slot).toBe(`revoked:${keyId}`);
    await expect(createApiKey(deps, { workspaceId, scopes: ['all'] })).resolves.toMatchObject({ keyId: expect.any(Number) });
  });
});

describe('the operator changing a workspace', () => {
  it('keeps every field of concurrent subscription and review changes', async () => {
    for (let round = 0; round < 3; round++) {
      const { workspaceId } = await createWorkspace(deps, { name: 'Ops', tier: 'starter' });
      const periodEnd = '2031-05-01T00:00:00.000Z';
      await Promise.all([
        setSubscription(deps, { workspaceId, tier: 'team' }),
        setSubscription(deps, { workspaceId, status: 'past_due' }),
        setSubscription(deps, { workspaceId, currentPeriodEnd: periodEnd }),
        setSubscription(deps, { workspaceId, cancelAtPeriodEnd: true }),
        setReviewRequired(deps, workspaceId, true),
      ]);
      const w = await getWorkspace(deps, workspaceId);
      expect(w).toMatchObject({ name: 'Ops', tier: 'team', subscriptionStatus: 'past_due', reviewRequired: true, cancelAtPeriodEnd: true });
      expect(w.currentPeriodEnd?.toISOString()).toBe(periodEnd);
    }
  });

  it('answers each change with the workspace as that change left it, and NOT_FOUND for no workspace', async () => {
    const { workspaceId } = await createWorkspace(deps, { name: 'Ops', tier: 'pro' });
    expect(await setReviewRequired(deps, workspaceId, true)).toMatchObject({ reviewRequired: true, tier: 'pro', subscriptionStatus: 'active' });
    expect(await setSubscription(deps, { workspaceId, tier: 'starter' })).toMatchObject({ reviewRequired: true, tier: 'starter' });
    expect(await setReviewRequired(deps, workspaceId, false)).toMatchObject({ reviewRequired: false, tier: 'starter' });
    await expect(setReviewRequired(deps, 987_654_321, true)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(setSubscription(deps, { workspaceId: 987_654_321, tier: 'pro' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('memberships', () => {
  it('adds a member once however many identical requests race', async () => {
    const { workspaceId } = await createWorkspace(deps, { name: 'Team', tier: 'team' });
    const userId = await createUser(deps, `racer-${randomBytes(3).toString('hex')}@example.com`);
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => addMember(deps, workspaceId, userId)));
    expect(results.map(codeOf)).toEqual(Array(10).fill('ok'));
    expect(await connection.collection('memberships').countDocuments({ workspace_id: workspaceId, user_id: userId })).toBe(1);
  });

  it('removes a member once: of racing removals one succeeds, the others find no membership', async () => {
    const { workspaceId } = await createWorkspace(deps, { name: 'Team', tier: 'team' });
    const userId = await createUser(deps, `leaver-${randomBytes(3).toString('hex')}@example.com`);
    await addMember(deps, workspaceId, userId);
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => removeMember(deps, workspaceId, userId)));
    expect(results.map(codeOf).sort()).toEqual(['NOT_FOUND', 'NOT_FOUND', 'NOT_FOUND', 'NOT_FOUND', 'NOT_FOUND', 'NOT_FOUND', 'NOT_FOUND', 'NOT_FOUND', 'NOT_FOUND', 'ok']);
  });
});
