import { describe, expect, it } from 'vitest';
import { outboxEntry } from '../data/outbox.js';
import type { PostEvent } from '../domain/model.js';
import { publicEventsOf } from './public-events.js';

const at = new Date('2026-03-02T09:30:00.000Z');
const later = new Date('2026-03-04T09:00:00.000Z');
const base = { workspaceId: 7, postId: 42, occurredAt: at };
const kindsOf = (event: PostEvent) => publicEventsOf(outboxEntry(event, at), 'ns').map((e) => [e.kind, e.data]);

describe('the public events of a posts outbox entry', () => {
  it('a post created scheduled is created and scheduled; created as a draft, created only', () => {
    expect(kindsOf({ ...base, subject: 'posts.post.created', msgId: 'c1', status: 'scheduled', scheduledAt: later })).toEqual([
      ['post.created', { post_id: 42, status: 'scheduled', scheduled_at: later.toISOString() }],
      ['post.scheduled', { post_id: 42, status: 'scheduled', scheduled_at: later.toISOString() }],
    ]);
    expect(kindsOf({ ...base, subject: 'posts.post.created', msgId: 'c2', status: 'draft' }).map(([k]) => k)).toEqual(['post.created']);
  });

  it('an update is scheduled only when the post became scheduled or its time moved', () => {
    const updated = (previous: PostEvent['previous'], status = 'scheduled', scheduledAt: Date | undefined = later) =>
      kindsOf({ ...base, subject: 'posts.post.updated', msgId: `u-${Math.random()}`, status, scheduledAt, previous }).map(([k]) => k);
    expect(updated({ status: 'draft' })).toEqual(['post.updated', 'post.scheduled']);
    expect(updated({ status: 'scheduled', scheduledAt: at })).toEqual(['post.updated', 'post.scheduled']);
    expect(updated({ status: 'scheduled', scheduledAt: later })).toEqual(['post.updated']);
    expect(updated({ status: 'scheduled', scheduledAt: later }, 'draft', undefined)).toEqual(['post.updated']);
    // An event written before the previous state was kept: not known to be a new schedule.
    expect(updated(undefined)).toEqual(['post.updated']);
  });

  it('a review is approved (and scheduled when it has a time) or rejected; a terminal event keeps the contract data', () => {
    expect(kindsOf({ ...base, subject: 'posts.post.reviewed', msgId: 'r1', status: 'scheduled', reviewAction: 'approved', scheduledAt: later }).map(([k]) => k)).toEqual([
      'post.approved',
      'post.scheduled',
    ]);
    expect(kindsOf({ ...base, subject: 'posts.post.reviewed', msgId: 'r2', status: 'draft', reviewAction: 'rejected' }).map(([k]) => k)).toEqual(['post.rejected']);
    expect(
      kindsOf({
        ...base,
        subject: 'posts.post.terminal',
        msgId: 't1',
        status: 'partial',
        dryRun: false,
        platforms: [
          { postAccountId: 1, socialAccountId: 2, platform: 'mastodon', platformStatus: 'posted', platformPostId: '99' },
          { postAccountId: 3, socialAccountId: 4, platform: 'bluesky', platformStatus: 'failed', platformPostId: '', platformError: 'refused' },
        ],
      }),
    ).toEqual([
      [
        'post.partial_failure',
        {
          post_id: 42,
          status: 'partial',
          dry_run: false,
          platforms: [
            { platform: 'mastodon', platform_status: 'posted', platform_post_id: '99', platform_error: null },
            { platform: 'bluesky', platform_status: 'failed', platform_post_id: '', platform_error: 'refused' },
          ],
        },
      ],
    ]);
  });

  it('the ids are derived from the entry: the same when it is published again, distinct per kind and deployment', () => {
    const entry = outboxEntry({ ...base, subject: 'posts.post.created', msgId: 'same', status: 'scheduled', scheduledAt: later }, at);
    const once = publicEventsOf(entry, 'ns').map((e) => e.id);
    expect(publicEventsOf(entry, 'ns').map((e) => e.id)).toEqual(once);
    expect(new Set(once).size).toBe(2);
    expect(publicEventsOf(entry, 'other').map((e) => e.id)).not.toEqual(once);
  });
});
