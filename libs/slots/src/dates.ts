/** The epoch milliseconds of `value`; throws a RangeError naming the argument when it is not a valid Date. */
export function assertValidDate(value: Date, name: string): number {
  const ms = value instanceof Date ? value.getTime() : Number.NaN;
  if (Number.isNaN(ms)) throw new RangeError(`${name} must be a valid Date`);
  return ms;
}
