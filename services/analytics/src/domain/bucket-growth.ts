import { METRIC_NAMES, type MetricName, type MonthBucket, type PostGrowth, type ReportSpan } from './model.js';
import { addSums, NO_SUMS, postDay } from './sums.js';

/**
 * Adds one post's growth, attributed to days (ascending), to its account's month bucket: each day's sums take
 * the counts the post reported, and the post's report spans of the month grow. A post counts once a day in a
 * day's `reportedBy` however many of its fetches end that day. Returns the bucket's new days and reporters.
 */
export function addPostGrowth(bucket: Pick<MonthBucket, 'month' | 'days' | 'reporters'>, postAccountId: number, perDay: Map<string, PostGrowth>): Pick<MonthBucket, 'days' | 'reporters'> {
  const days = { ...bucket.days };
  const spans: Partial<Record<MetricName, ReportSpan>> = { ...bucket.reporters[postAccountId] };
  for (const [day, growth] of perDay) {
    if (!day.startsWith(bucket.month)) continue;
    days[day] = addSums(
      days[day] ?? NO_SUMS,
      postDay(growth, (name) => (spans[name]?.[1] ?? '') >= day),
    );
    for (const name of METRIC_NAMES) {
      if (growth[name] === null) continue;
      const span = spans[name];
      spans[name] = [span && span[0] < day ? span[0] : day, span && span[1] > day ? span[1] : day];
    }
  }
  const reporters = Object.keys(spans).length ? { ...bucket.reporters, [postAccountId]: spans } : bucket.reporters;
  return { days, reporters };
}
