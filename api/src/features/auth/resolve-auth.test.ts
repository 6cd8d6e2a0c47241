import { describe, expect, it } from 'vitest';
import { AppError, retryAfterOf } from '../../errors.ts';
import { IdentityError } from '../../platform/identity/port.ts';
import { authFailure } from './resolve-auth.ts';

describe('auth failures that are outages (decision 0024)', () => {
  it('answers the hosted sign-in service not answering as 503 with Retry-After, not as signed out', () => {
    for (const error of [
      new IdentityError(
        'unavailable',
        'We could not reach the sign-in service. Please try again in a moment.',
      ),
      new IdentityError('upstream_error', 'The sign-in service had a problem.', 502),
    ]) {
      const answered = authFailure(error);
      expect(answered).toBeInstanceOf(AppError);
      expect((answered as AppError).code).toBe('UNAVAILABLE');
      expect(retryAfterOf(answered as AppError)).toBeGreaterThan(0);
    }
  });

  it('leaves database errors to be classified by the caller, and everything else as it is', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    expect(authFailure(refused)).toBe(refused);
    const bug = new TypeError('undefined is not a function');
    expect(authFailure(bug)).toBe(bug);
    const expired = new IdentityError('upstream_error', 'Your session has expired.', 401);
    expect(authFailure(expired)).toBe(expired);
  });
});
