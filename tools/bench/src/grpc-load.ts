import { LatencyRecorder, tally, type LoadResult } from './stats.js';

export interface CallLoad {
  /** One call; a rejection counts as an error. */
  call: () => Promise<unknown>;
  concurrency: number;
  durationS: number;
}

/**
 * Keeps `concurrency` calls in flight for `durationS` seconds (closed loop, like autocannon's
 * connections), timing each call with process.hrtime.bigint().
 */
export async function runCallLoad(load: CallLoad): Promise<LoadResult> {
  const latencies = new LatencyRecorder();
  let errors = 0;
  const failures: Record<string, number> = {};
  const started = process.hrtime.bigint();
  const deadline = started + BigInt(Math.round(load.durationS * 1e9));
  const worker = async (): Promise<void> => {
    while (process.hrtime.bigint() < deadline) {
      const t0 = process.hrtime.bigint();
      try {
        await load.call();
        latencies.record(Number(process.hrtime.bigint() - t0) / 1e6);
      } catch (err) {
        errors += 1;
        tally(failures, describeFailure(err));
      }
    }
  };
  await Promise.all(Array.from({ length: load.concurrency }, worker));
  const elapsedS = Number(process.hrtime.bigint() - started) / 1e9;
  return {
    requestsPerSec: latencies.count / elapsedS,
    ...latencies.percentiles(),
    completed: latencies.count,
    errors,
    non2xx: 0,
    failures,
  };
}

/** An error's code (AppError, gRPC) and the gRPC status details of its cause, when present. */
function describeFailure(err: unknown): string {
  const { code, message, cause } = (err ?? {}) as { code?: unknown; message?: unknown; cause?: { details?: unknown } };
  const details = typeof cause?.details === 'string' ? cause.details : typeof message === 'string' ? message : String(err);
  return code === undefined ? details : `${String(code)}: ${details}`;
}
