/** What one measured scenario produced; latencies in milliseconds. */
export interface LoadResult {
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  completed: number;
  errors: number;
  /** HTTP responses that were not 2xx (always 0 for gRPC, where a failed call counts as an error). */
  non2xx: number;
  /** What went wrong, counted by kind (e.g. "HTTP 503", "SERVICE_UNAVAILABLE: Deadline exceeded"). */
  failures: Record<string, number>;
}

/** Adds `n` occurrences of `kind` to a failure tally. */
export function tally(failures: Record<string, number>, kind: string, n = 1): void {
  failures[kind] = (failures[kind] ?? 0) + n;
}

/** Nearest-rank percentile of an ascending array (q in 0..1); NaN when empty. */
export function percentile(sortedAsc: Float64Array, q: number): number {
  if (sortedAsc.length === 0) return Number.NaN;
  const rank = Math.min(sortedAsc.length - 1, Math.max(0, Math.ceil(q * sortedAsc.length) - 1));
  return sortedAsc[rank] ?? Number.NaN;
}

/** Collects latencies cheaply (a growable Float64Array) and summarises them. */
export class LatencyRecorder {
  private values = new Float64Array(1 << 16);
  private size = 0;

  record(ms: number): void {
    if (this.size === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.size++] = ms;
  }

  get count(): number {
    return this.size;
  }

  percentiles(): { p50Ms: number; p99Ms: number } {
    const sorted = this.values.slice(0, this.size).sort();
    return { p50Ms: percentile(sorted, 0.5), p99Ms: percentile(sorted, 0.99) };
  }
}
