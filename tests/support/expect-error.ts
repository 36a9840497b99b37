import { expect } from 'vitest';
import type { HttpResponse } from '@spa/testing';

/** Asserts an error answer: status, code, and the envelope's shape. */
export function expectError(res: HttpResponse, status: number, code: string): void {
  expect(res.status, res.text).toBe(status);
  expect(res.json?.error?.code).toBe(code);
  expect(typeof res.json.error.message).toBe('string');
  expect(Object.keys(res.json)).toEqual(['error']);
}
