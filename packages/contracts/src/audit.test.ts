import { describe, expect, it } from 'vitest';
import { auditDetailLines } from './audit.ts';

describe('auditDetailLines', () => {
  it('shows amounts in pence as pounds, and every key in words', () => {
    expect(
      auditDetailLines({
        reference: 'RS-1234',
        refundedMinor: 1362,
        seller_deducted_minor: 50,
        full: false,
        reset: true,
        orders: 24,
        run_id: 'a1',
        note: null,
      }),
    ).toEqual([
      { label: 'Reference', value: 'RS-1234' },
      { label: 'Refunded', value: '£13.62' },
      { label: 'Seller deducted', value: '£0.50' },
      { label: 'Full', value: 'No' },
      { label: 'Reset', value: 'Yes' },
      { label: 'Orders', value: '24' },
      { label: 'Run ID', value: 'a1' },
      { label: 'Note', value: '—' },
    ]);
  });

  it('lists arrays and nested objects in the same words', () => {
    expect(
      auditDetailLines({ order: ['a', 'b'], after: { name: 'Fiction', priceMinor: 1200 }, count: 12345 }),
    ).toEqual([
      { label: 'Order', value: 'a, b' },
      { label: 'After', value: 'Name: Fiction; Price: £12.00' },
      { label: 'Count', value: '12,345' },
    ]);
  });
});
