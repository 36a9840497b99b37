import { invalidParameters } from '@spa/errors';
import type { z } from 'zod';

function formatPath(path: PropertyKey[]): string {
  return path.reduce<string>((out, key) => (typeof key === 'number' ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key)), '');
}

/** Parses input against a schema; on failure throws INVALID_PARAMETERS with one detail per problem, naming the field. */
export function validate<T>(schema: z.ZodType<T>, input: unknown, where: string): T {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const details = result.error.issues.map((issue) => {
    const path = formatPath(issue.path);
    return path ? `${path}: ${issue.message}` : `${where}: ${issue.message}`;
  });
  throw invalidParameters(details, `Invalid ${where}`);
}
