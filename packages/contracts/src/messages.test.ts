import { describe, expect, it } from 'vitest';
import { messageBodySchema, suggestsOffPlatform } from './messages.ts';

describe('suggestsOffPlatform', () => {
  it.each([
    'Can you do a bank transfer instead?',
    'I can pay by BACS',
    'Sort code 12-34-56, account number 12345678',
    'my sort code is 123456',
    'PayPal friends and family saves us both the fees',
    'paypal F&F?',
    'send it as friends & family on PayPal',
    'Text me on 07700 900123',
    'call 07700900123',
    'ring +44 7700 900 123',
    'my landline is 020 7946 0018',
    'or 0161-496-0123',
    'email me at someone@example.com',
    'WhatsApp me and we can sort it',
    'I would rather you pay me directly',
  ])('flags “%s”', (text) => {
    expect(suggestsOffPlatform(text)).toBe(true);
  });

  it.each([
    'Is the spine cracked? Posted 2nd class?',
    'The ISBN is 0140449132, the Penguin Classics one',
    'ISBN 0-7475-3269-9, first printing',
    'ISBN-13 9780747532699',
    'Would you take £7.50? I can pay today.',
    'It was printed in 1997, 223 pages',
    'Happy to pay through Reshelf, of course',
    'Can you post it by the 12th?',
  ])('lets “%s” through', (text) => {
    expect(suggestsOffPlatform(text)).toBe(false);
  });
});

describe('messageBodySchema', () => {
  it('needs text or a photo, at most 2,000 characters and 4 photos', () => {
    expect(messageBodySchema.safeParse({ text: '  ' }).success).toBe(false);
    expect(messageBodySchema.safeParse({ text: '', photos: ['/storage/x'] }).success).toBe(true);
    expect(messageBodySchema.safeParse({ text: 'x'.repeat(2000) }).success).toBe(true);
    expect(messageBodySchema.safeParse({ text: 'x'.repeat(2001) }).success).toBe(false);
    expect(messageBodySchema.safeParse({ text: 'hi', photos: ['a', 'b', 'c', 'd', 'e'] }).success).toBe(
      false,
    );
  });
});
