import { describe, expect, it } from 'vitest';
import { actorLabel, orderStatusLabel } from './format.ts';

describe('labels', () => {
  it('names order statuses from the shared list, and unknown ones as they are', () => {
    expect(orderStatusLabel('paid')).toBe('Paid — to dispatch');
    expect(orderStatusLabel('refunded')).toBe('Refunded');
    expect(orderStatusLabel('something_new')).toBe('something_new');
  });
  it('says "You" for the viewer’s own steps', () => {
    expect(actorLabel('buyer', 'buyer')).toBe('You');
    expect(actorLabel('seller', 'buyer')).toBe('The seller');
    expect(actorLabel('staff', 'seller')).toBe('Reshelf’s team');
    expect(actorLabel('system', 'staff')).toBe('Reshelf');
    expect(actorLabel('provider', 'buyer', 'paid')).toBe('The payment provider');
    expect(actorLabel('provider', 'buyer', 'dispatched')).toBe('The carrier');
    expect(actorLabel('provider', 'seller', 'delivered')).toBe('The carrier');
  });
});
