import { describe, expect, it } from 'vitest';
import { loginPath, requiresSession } from './next-path.ts';

// safeNextPath itself is tested with the shared helper (packages/contracts/src/next-path.test.ts).
describe('loginPath', () => {
  it('builds the sign-in path with an encoded next', () => {
    expect(loginPath('/account?tab=2')).toBe('/login?next=%2Faccount%3Ftab%3D2');
    expect(loginPath('/')).toBe('/login');
    expect(loginPath('//evil.example')).toBe('/login');
  });
});

describe('requiresSession', () => {
  it('covers the signed-in list, the staff area and global admin', () => {
    for (const path of ['/account', '/onboarding/complete', '/sell/42/photos', '/admin', '/admin/users']) {
      expect(requiresSession(path)).toBe(true);
    }
    expect(requiresSession('/global-admin/email-templates')).toBe(true);
  });

  it('leaves public pages alone', () => {
    for (const path of [
      '/',
      '/login',
      '/checkout/success',
      '/complete-signup',
      '/charity',
      '/administrator',
    ]) {
      expect(requiresSession(path)).toBe(false);
    }
  });
});
