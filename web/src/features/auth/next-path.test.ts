import { describe, expect, it } from 'vitest';
import { loginPath, requiresSession, safeNextPath } from './next-path.ts';

describe('safeNextPath', () => {
  it('keeps same-site paths with their query and hash', () => {
    expect(safeNextPath('/account')).toBe('/account');
    expect(safeNextPath('/sell/42/photos?step=2#top')).toBe('/sell/42/photos?step=2#top');
  });

  it.each([
    ['nothing', null],
    ['empty', ''],
    ['protocol-relative', '//evil.example/account'],
    ['backslash host', '/\\evil.example'],
    ['absolute', 'https://evil.example/'],
    ['javascript', 'javascript:alert(1)'],
    ['relative', 'account'],
    ['tab inside', '/\t/evil.example'],
    ['newline', '/account\n'],
    ['the login page itself', '/login?next=/account'],
  ])('refuses %s', (_name, value) => {
    expect(safeNextPath(value)).toBeNull();
  });

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
