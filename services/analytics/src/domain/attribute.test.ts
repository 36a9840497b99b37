import { describe, expect, it } from 'vitest';
import { attributeGrowth } from './attribute.js';
import { engagementRate } from './engagement.js';

const m = (impressions: number, likes = 0) => ({ impressions, likes, replies: 0, reposts: 0, clicks: 0 });

describe('attribution of growth to days', () => {
  it('gives a span inside one day all of its growth', () => {
    const out = attributeGrowth(m(100, 7), new Date('2026-05-01T10:00:00Z'), new Date('2026-05-01T11:00:00Z'), 'UTC');
    expect([...out]).toEqual([['2026-05-01', m(100, 7)]]);
  });

  it('spreads growth over the days of the span in proportion to time, adding up exactly', () => {
    // 12 h on May 1st, 24 h on May 2nd, 12 h on May 3rd.
    const out = attributeGrowth(m(1001, 3), new Date('2026-05-01T12:00:00Z'), new Date('2026-05-03T12:00:00Z'), 'UTC');
    expect([...out.keys()]).toEqual(['2026-05-01', '2026-05-02', '2026-05-03']);
    expect([...out.values()].map((v) => v.impressions)).toEqual([250, 501, 250]);
    expect([...out.values()].reduce((a, v) => a + v.impressions!, 0)).toBe(1001);
    expect([...out.values()].reduce((a, v) => a + v.likes!, 0)).toBe(3);
  });

  it('uses the zone’s days, not UTC’s', () => {
    const out = attributeGrowth(m(10), new Date('2026-05-01T22:00:00Z'), new Date('2026-05-01T23:00:00Z'), 'Asia/Tokyo');
    expect([...out.keys()]).toEqual(['2026-05-02']);
  });

  it('keeps a count the platform does not report null on every day, never 0', () => {
    const out = attributeGrowth({ impressions: null, likes: 3, replies: 0, reposts: null, clicks: null }, new Date('2026-05-01T12:00:00Z'), new Date('2026-05-02T12:00:00Z'), 'UTC');
    expect([...out]).toEqual([
      ['2026-05-01', { impressions: null, likes: 2, replies: 0, reposts: null, clicks: null }],
      ['2026-05-02', { impressions: null, likes: 1, replies: 0, reposts: null, clicks: null }],
    ]);
  });

  it('successive snapshots never count a post twice', () => {
    const posted = new Date('2026-05-01T08:00:00Z');
    const snaps = [
      { at: new Date('2026-05-01T09:00:00Z'), impressions: 40 },
      { at: new Date('2026-05-02T08:00:00Z'), impressions: 100 },
      { at: new Date('2026-05-08T08:00:00Z'), impressions: 130 },
    ];
    let prev = { at: posted, impressions: 0 };
    let total = 0;
    for (const s of snaps) {
      for (const v of attributeGrowth(m(s.impressions - prev.impressions), prev.at, s.at, 'UTC').values()) total += v.impressions!;
      prev = s;
    }
    expect(total).toBe(130);
  });
});

describe('engagement rate', () => {
  it('is engagements over impressions, and null without impressions', () => {
    expect(engagementRate({ impressions: 200, likes: 10, replies: 4, reposts: 3, clicks: 3 })).toBe(0.1);
    expect(engagementRate({ impressions: 0, likes: 10, replies: 0, reposts: 0, clicks: 0 })).toBeNull();
    expect(engagementRate({ impressions: Number.NaN, likes: 1, replies: 0, reposts: 0, clicks: 0 })).toBeNull();
  });

  it('counts only the interactions the platform reports, and is null with impressions or every interaction unknown', () => {
    expect(engagementRate({ impressions: 200, likes: 10, replies: 4, reposts: 6, clicks: null })).toBe(0.1);
    expect(engagementRate({ impressions: null, likes: 10, replies: 4, reposts: 6, clicks: 0 })).toBeNull();
    expect(engagementRate({ impressions: 200, likes: null, replies: null, reposts: null, clicks: null })).toBeNull();
    expect(engagementRate({ impressions: 200, likes: 0, replies: null, reposts: null, clicks: null })).toBe(0);
  });
});
