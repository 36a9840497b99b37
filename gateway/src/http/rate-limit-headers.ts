import type { Response } from 'express';
import { mostRestrictive, type LimitState } from '../rate-limit/limits.js';

/** Records a limiter's state for this response and rewrites RateLimit-* from the most restrictive one. */
export function recordLimit(res: Response, state: LimitState): void {
  const states: LimitState[] = (res.locals.limitStates ??= []);
  states.push(state);
  const worst = mostRestrictive(states)!;
  res.setHeader('RateLimit-Limit', String(worst.limit));
  res.setHeader('RateLimit-Remaining', String(worst.remaining));
  res.setHeader('RateLimit-Reset', String(worst.resetSec));
}
