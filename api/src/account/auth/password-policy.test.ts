import { describe, expect, it } from 'vitest';
import { passwordProblems } from './password-policy.ts';

describe('password policy', () => {
  it('accepts a long, uncommon password', () => {
    expect(passwordProblems('tangerine-bookshelf-42')).toEqual([]);
    expect(passwordProblems('reshelf-demo')).toEqual([]);
  });

  it('asks for at least 10 characters, saying how many there are', () => {
    expect(passwordProblems('short1!')).toEqual(['Use at least 10 characters (this one has 7).']);
  });

  it('refuses common passwords whatever their case', () => {
    expect(passwordProblems('password123')[0]).toMatch(/most common passwords/);
    expect(passwordProblems('QWERTYUIOP')[0]).toMatch(/most common passwords/);
    expect(passwordProblems('1234567890')[0]).toMatch(/most common passwords/);
  });

  it('refuses a single repeated character and the email address', () => {
    expect(passwordProblems('aaaaaaaaaaaa')[0]).toMatch(/repeating a single character/);
    expect(passwordProblems('jane.doe-library', { email: 'jane.doe@example.com' })).toEqual([
      'Don’t use your email address in your password.',
    ]);
  });
});
