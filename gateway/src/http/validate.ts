import { invalidParameters } from '@spa/errors';
import { controlCharacterProblems } from '@spa/grpc';
import type { z } from 'zod';

function formatPath(path: PropertyKey[]): string {
  return path.reduce<string>((out, key) => (typeof key === 'number' ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key)), '');
}

/**
 * Parses input against a schema; on failure throws INVALID_PARAMETERS with one detail per problem, naming the field.
 * Every request's path, query and body pass here, so the rules every field shares live here too: no text may hold
 * a control character other than tab, line feed and carriage return (the OpenAPI document states it once).
 */
export function validate<T>(schema: z.ZodType<T>, input: unknown, where: string): T {
  const controls = controlCharacterProblems(input, undefined, '').map((p) => (p.startsWith('value:') ? `${where}${p.slice('value'.length)}` : p));
  const result = schema.safeParse(input);
  if (result.success && !controls.length) return result.data;
  const details = [
    ...controls,
    ...(result.error?.issues ?? []).map((issue) => {
      const path = formatPath(issue.path);
      return path ? `${path}: ${issue.message}` : `${where}: ${issue.message}`;
    }),
  ];
  throw invalidParameters(details, `Invalid ${where}`);
}
