import { describe, expect, it } from 'vitest';
import { safeNextPath, withNext } from './next-path.ts';
import { nextPathSchema } from './schemas.ts';

describe('safeNextPath', () => {
  it('keeps same-site paths with their query and hash', () => {
    expect(safeNextPath('/account')).toBe('/account');
    expect(safeNextPath('/sell/42/photos?step=2#top')).toBe('/sell/42/photos?step=2#top');
    expect(safeNextPath('/checkout?listing=middlemarch-1a2b')).toBe('/checkout?listing=middlemarch-1a2b');
  });

  it.each([
    ['nothing', null],
    ['empty', ''],
    ['protocol-relative', '//evil.example/account'],
    ['backslash host', '/\\evil.example'],
    ['absolute', 'https://evil.example/'],
    ['http scheme', 'http:evil.example'],
    ['javascript', 'javascript:alert(1)'],
    ['data', 'data:text/html,hi'],
    ['relative', 'account'],
    ['tab inside', '/\t/evil.example'],
    ['newline', '/account\n'],
    ['the login page itself', '/login?next=/account'],
    ['too long', `/${'a'.repeat(2000)}`],
  ])('refuses %s', (_name, value) => {
    expect(safeNextPath(value)).toBeNull();
  });

  it.each([
    ['a dot segment before a double slash', '/.//evil.example'],
    ['a parent segment before a double slash', '/x/..//evil.example'],
    ['an encoded parent segment before a double slash', '/%2e%2e//evil.example'],
    ['an encoded dot segment', '/%2E//evil.example/account'],
    ['a dot segment and a backslash host', '/./\\evil.example'],
    ['dot segments all the way up', '/a/b/../..//evil.example'],
  ])('refuses %s, which normalises to another host', (_name, value) => {
    expect(safeNextPath(value)).toBeNull();
    expect(withNext('/onboarding', value)).toBe('/onboarding');
    expect(nextPathSchema.safeParse(value).success).toBe(false);
  });

  it('answers with a normalised path, which it accepts again unchanged', () => {
    for (const value of ['/a/./b/../c?x=1#y', '/%2e/account', '/sell/42/photos?step=2#top', '/x/..']) {
      const once = safeNextPath(value);
      expect(once).not.toBeNull();
      expect(safeNextPath(once)).toBe(once);
    }
    expect(safeNextPath('/a/./b/../c?x=1#y')).toBe('/a/c?x=1#y');
  });

  it('keeps an encoded double slash as a path on this site', () => {
    expect(safeNextPath('/%2F%2Fevil.example')).toBe('/%2F%2Fevil.example');
  });
});

describe('withNext', () => {
  it('adds an encoded next to a path, with or without a query', () => {
    expect(withNext('/complete-signup', '/checkout?listing=a-b')).toBe(
      '/complete-signup?next=%2Fcheckout%3Flisting%3Da-b',
    );
    expect(withNext('/login?mode=signup', '/account')).toBe('/login?mode=signup&next=%2Faccount');
    expect(withNext('/charity#top', '/account')).toBe('/charity?next=%2Faccount#top');
  });

  it('leaves an unsafe or home next out', () => {
    expect(withNext('/onboarding', '//evil.example')).toBe('/onboarding');
    expect(withNext('/onboarding', 'https://evil.example')).toBe('/onboarding');
    expect(withNext('/onboarding', '/')).toBe('/onboarding');
    expect(withNext('/onboarding', null)).toBe('/onboarding');
  });
});

describe('nextPathSchema', () => {
  it('accepts a same-site path and refuses anything else, saying why', () => {
    expect(nextPathSchema.parse('/checkout?listing=a')).toBe('/checkout?listing=a');
    for (const bad of ['//evil.example', 'https://evil.example/x', 'javascript:alert(1)', 'checkout']) {
      const result = nextPathSchema.safeParse(bad);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toMatch(/next must be a path on this site/);
    }
  });
});
