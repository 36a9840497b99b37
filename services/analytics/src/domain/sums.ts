import { METRIC_NAMES, UNREPORTED, type MetricName, type PostGrowth, type ReportedBy, type Sums } from './model.js';

const NOBODY: ReportedBy = { impressions: 0, likes: 0, replies: 0, reposts: 0, clicks: 0 };

/** Nothing reported: every count null, reported by no post. */
export const NO_SUMS: Sums = { values: UNREPORTED, reportedBy: NOBODY, rated: { impressions: 0, engagements: 0 } };

const each = <T>(f: (name: MetricName) => T): Record<MetricName, T> => Object.fromEntries(METRIC_NAMES.map((name) => [name, f(name)])) as Record<MetricName, T>;

/** Sums of disjoint sets of posts (or of one post's days): a count stays null only when neither reported it. */
export function addSums(a: Sums, b: Sums): Sums {
  return {
    values: each((name) => {
      const x = a.values[name];
      const y = b.values[name];
      return x === null ? y : y === null ? x : x + y;
    }),
    reportedBy: each((name) => a.reportedBy[name] + b.reportedBy[name]),
    rated: { impressions: a.rated.impressions + b.rated.impressions, engagements: a.rated.engagements + b.rated.engagements },
  };
}

/** The engagement rate of summed posts: their engagements over their impressions; null without impressions. */
export const sumsRate = (s: Sums): number | null => (s.rated.impressions > 0 ? s.rated.engagements / s.rated.impressions : null);

/** The same sums counted by other posts (a range's distinct posts rather than the sum of its days'). */
export const withReportedBy = (s: Sums, reportedBy: ReportedBy): Sums => ({ ...s, reportedBy });

/**
 * One post's growth on one day, as sums: each count it reported, counted as reported by it unless `already`
 * says the post was counted on that day already (its previous fetch's growth ended there), and its rate's terms.
 */
export function postDay(growth: PostGrowth, already: (name: MetricName) => boolean): Sums {
  return {
    values: each((name) => growth[name]),
    reportedBy: each((name) => (growth[name] !== null && !already(name) ? 1 : 0)),
    rated: { impressions: growth.ratedImpressions ?? 0, engagements: growth.ratedEngagements ?? 0 },
  };
}
