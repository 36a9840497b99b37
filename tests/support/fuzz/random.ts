import fc from 'fast-check';
import { HOSTILE_JSON } from './hostile.js';

/** Random values and random bodies shaped like an operation's example, for the fuzz tests. */

/** Any JSON value: a hostile one, or one fast-check makes up (unicode strings, any numbers, nested). */
export const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_JSON) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.integer({ min: -(2 ** 31) - 10, max: 2 ** 31 + 10 }) },
  { weight: 1, arbitrary: fc.maxSafeInteger() },
  { weight: 1, arbitrary: fc.double() },
);

/**
 * A body shaped like `example`, each field kept, left out, or replaced by any JSON value, at every depth (array
 * items and objects alike), with an unknown field now and then: what a client with a wrong idea of the schema sends.
 */
export function bodyLike(example: unknown, depth = 0): fc.Arbitrary<unknown> {
  if (depth > 4 || example === null || typeof example !== 'object') return fc.oneof({ weight: 3, arbitrary: fc.constant(example) }, { weight: 2, arbitrary: anyJson });
  if (Array.isArray(example)) {
    const item = example.length ? bodyLike(example[0], depth + 1) : anyJson;
    return fc.oneof({ weight: 3, arbitrary: fc.array(item, { maxLength: 4 }) }, { weight: 1, arbitrary: anyJson });
  }
  const fields = Object.fromEntries(Object.entries(example).map(([k, v]) => [k, bodyLike(v, depth + 1)]));
  const shaped = fc
    .tuple(fc.record(fields, { requiredKeys: [] }), fc.option(fc.tuple(fc.string({ maxLength: 12 }), anyJson), { freq: 6 }))
    .map(([record, extra]) => (extra ? { ...record, [extra[0]]: extra[1] } : record));
  return fc.oneof({ weight: 4, arbitrary: shaped }, { weight: 1, arbitrary: anyJson });
}
