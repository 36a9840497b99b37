import { invalidParameters } from '@spa/errors';

/** An id field of a request (workspace_id, plan_id, …): a positive integer, else INVALID_PARAMETERS naming it. */
export function positiveId(value: number, field: string): number {
  if (!Number.isSafeInteger(value) || value <= 0) throw invalidParameters([`${field} must be a positive integer`]);
  return value;
}
