import { describe, expect, it } from 'vitest';
import { parseConsent } from './consent.ts';

describe('parseConsent', () => {
  it('accepts the two stored choices', () => {
    expect(parseConsent('accepted')).toBe('accepted');
    expect(parseConsent('declined')).toBe('declined');
  });

  it('treats anything else as no choice yet', () => {
    expect(parseConsent(null)).toBeNull();
    expect(parseConsent('')).toBeNull();
    expect(parseConsent('yes')).toBeNull();
    expect(parseConsent('Accepted')).toBeNull();
  });
});
