/** The orders and payments pages' search: reference or email and a status, kept in the address. */
import { Search } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Button } from '../../../components/ui/button.tsx';
import { fieldClasses, Input, Label } from '../../../components/ui/input.tsx';
import { useFilterParams } from '../../../kit/useFilterParams.ts';

export const ORDER_STATUSES = [
  'pending_payment',
  'paid',
  'dispatched',
  'delivered',
  'disputed',
  'completed',
  'cancelled',
  'refunded',
] as const;
export const PAYMENT_STATUSES = ['pending', 'succeeded', 'failed', 'abandoned'] as const;

/** q and status as searched, and the order open in the sheet. */
const filterSchema = z.object({
  q: z.string().default(''),
  status: z.string().default(''),
  order: z.string().optional(),
});

export function useOrderFilters() {
  return useFilterParams(filterSchema);
}
export type OrderFilters = ReturnType<typeof useOrderFilters>;

export function pick<T extends string>(values: readonly T[], value: string): T | undefined {
  return (values as readonly string[]).includes(value) ? (value as T) : undefined;
}

export function Filters({
  filters,
  statuses,
  label,
}: {
  filters: OrderFilters;
  statuses: readonly string[];
  label: string;
}) {
  const { q, status } = filters.values;
  const form = useForm({ values: { q, status } });
  const submit = form.handleSubmit((draft) =>
    filters.set({ q: draft.q.trim(), status: draft.status, order: undefined }),
  );
  return (
    <form
      onSubmit={submit}
      className="grid gap-3 rounded-xl border border-line bg-paper p-4 sm:grid-cols-[2fr_1fr_auto] sm:items-end"
    >
      <div className="flex flex-col gap-1">
        <Label htmlFor="orders-q">{label}</Label>
        <Input id="orders-q" {...form.register('q')} />
      </div>
      <div className="flex flex-col gap-1">
        <Label htmlFor="orders-status">Status</Label>
        <select id="orders-status" {...form.register('status')} className={`${fieldClasses} h-11`}>
          <option value="">Any</option>
          {statuses.map((value) => (
            <option key={value} value={value}>
              {value.replace('_', ' ')}
            </option>
          ))}
        </select>
      </div>
      <Button type="submit">
        <Search aria-hidden="true" />
        Search
      </Button>
    </form>
  );
}
