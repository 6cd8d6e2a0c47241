import { describe, expect, it } from 'vitest';
import { GIFT_HEADLINE, isWelcomeGiftDue } from './welcome-gift.ts';

function storage(values: Record<string, string>) {
  return (key: string) => values[key] ?? null;
}

describe('welcome gift eligibility', () => {
  it('is due for a visitor with neither flag', () => {
    expect(isWelcomeGiftDue(storage({}))).toBe(true);
    expect(isWelcomeGiftDue(storage({ 'cookie-consent': 'accepted', 'first-time-discount': '20' }))).toBe(
      true,
    );
  });

  it('is not due once the visitor has the has-visited flag', () => {
    expect(isWelcomeGiftDue(storage({ 'has-visited': 'true' }))).toBe(false);
  });

  it('is not due once it has been shown (gift-modal-shown)', () => {
    expect(isWelcomeGiftDue(storage({ 'gift-modal-shown': 'true' }))).toBe(false);
  });

  it('reads 20% OFF', () => {
    expect(GIFT_HEADLINE).toBe('20% OFF');
  });
});
