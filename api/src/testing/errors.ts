/** Asserting a service refused with a domain error: its code and, optionally, its message. */
import { expect } from 'vitest';
import { AppError } from '../errors.ts';

export async function rejects(
  promise: Promise<unknown>,
  code: AppError['code'],
  message?: RegExp,
): Promise<void> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe(code);
  if (message) expect((error as AppError).message).toMatch(message);
}
