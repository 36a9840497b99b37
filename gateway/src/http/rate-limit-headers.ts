import type { Response } from 'express';
import { limitStateOf, mostRestrictive, type LimitState } from '../rate-limit/limits.js';

/** Records a limiter's state for this response and rewrites RateLimit-* from the most restrictive one. */
export function recordLimit(res: Response, state: LimitState): void {
  const states: LimitState[] = (res.locals.limitStates ??= []);
  states.push(state);
  const worst = mostRestrictive(states)!;
  res.setHeader('RateLimit-Limit', String(worst.limit));
  res.setHeader('RateLimit-Remaining', String(worst.remaining));
  res.setHeader('RateLimit-Reset', String(worst.resetSec));
}

/** Consumes a limiter point and records the headers; a refusal still carries the headers. */
export async function limit(res: Response, consume: () => Promise<LimitState>): Promise<void> {
  try {
    recordLimit(res, await consume());
  } catch (err) {
    const state = limitStateOf(err);
    if (state) recordLimit(res, state);
    throw err;
  }
}
