import type { LoadResult } from './stats.js';

export interface ReportRow {
  name: string;
  result: LoadResult;
}

/** The gateway's targets relative to the bare node:http baseline. */
export const TARGETS = { minRatio: 0.035, maxP99Ms: 50 };

const COLUMNS: [title: string, width: number][] = [
  ['scenario', 31],
  ['req/s', 9],
  ['p50 ms', 9],
  ['p99 ms', 9],
  ['ratio to node:http', 20],
  ['responses', 11],
  ['non-2xx', 9],
  ['errors', 6],
];

/** The results table; ratios are each scenario's req/s over the first row's (the baseline). */
export function formatTable(rows: ReportRow[]): string {
  const baseline = rows[0]?.result.requestsPerSec ?? Number.NaN;
  const lines = [line(COLUMNS.map(([title]) => title))];
  for (const { name, result } of rows) {
    lines.push(
      line([
        name,
        result.requestsPerSec.toFixed(result.requestsPerSec < 100 ? 1 : 0),
        result.p50Ms.toFixed(2),
        result.p99Ms.toFixed(2),
        formatRatio(result.requestsPerSec / baseline),
        String(result.completed),
        String(result.non2xx),
        String(result.errors),
      ]),
    );
  }
  return lines.join('\n');
}

/** Three decimals, or two significant digits when that would print 0.000. */
function formatRatio(ratio: number): string {
  return ratio > 0 && ratio < 0.001 ? ratio.toPrecision(2) : ratio.toFixed(3);
}

function line(cells: string[]): string {
  return cells
    .map((cell, i) => cell.padEnd(COLUMNS[i]?.[1] ?? 0))
    .join('')
    .trimEnd();
}

/** One line stating whether the gateway met each target. */
export function formatTargets(gateway: LoadResult, baseline: LoadResult): string {
  const ratio = gateway.requestsPerSec / baseline.requestsPerSec;
  const ratioMet = ratio >= TARGETS.minRatio;
  const p99Met = gateway.p99Ms < TARGETS.maxP99Ms;
  return [
    `targets: gateway ratio >= ${TARGETS.minRatio}: ${verdict(ratioMet)} (${formatRatio(ratio)})`,
    `gateway p99 < ${TARGETS.maxP99Ms} ms: ${verdict(p99Met)} (${gateway.p99Ms.toFixed(2)} ms)`,
  ].join('; ');
}

const verdict = (met: boolean): string => (met ? 'met' : 'NOT MET');

/** States whether the Redis limiter handled every gateway request (one fresh client IP per request). */
export function formatLimiterCheck(redisKeys: number | Error, gatewayResponses: number, ipsIssued: number): string {
  const what = 'global rate limiter (100/min per client IP, Redis)';
  if (redisKeys instanceof Error) return `${what}: ran on every request; could not count its Redis keys: ${redisKeys.message}`;
  const counts = `${redisKeys} per-client counters in Redis for ${gatewayResponses} gateway responses (warm-up + run, ${ipsIssued} X-Forwarded-For values issued, one per request)`;
  return redisKeys >= gatewayResponses
    ? `${what}: ran on every request, each with its Redis round trip: ${counts}`
    : `${what}: WARNING, fewer Redis counters than responses, some requests fell back to the in-process limiter: ${counts}`;
}

/** One line per scenario that had failures (non-2xx responses or errors), by kind; none when all succeeded. */
export function formatFailures(rows: ReportRow[]): string[] {
  return rows
    .filter(({ result }) => Object.keys(result.failures).length > 0)
    .map(({ name, result }) => {
      const kinds = Object.entries(result.failures).map(([kind, n]) => `${kind} x${n}`);
      return `failures in ${name}: ${kinds.join(', ')}`;
    });
}
