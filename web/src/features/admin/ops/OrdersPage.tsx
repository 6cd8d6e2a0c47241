/**
 * /admin/orders and /admin/payments (staff): the shared basic dashboard, then orders (or
 * payments) found by reference, email and status, kept in the address. Choosing one opens its
 * order: the timeline of events, the money, the dispute; admins refund it in full or in part
 * with a reason (the server refuses moderators, shown as a toast).
 */
import { formatPence } from '@reshelf/contracts';
import { keepPreviousData } from '@tanstack/react-query';
import { Search, Undo2 } from 'lucide-react';
import { type FormEvent, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Button } from '../../../components/ui/button.tsx';
import { fieldClasses, Input, Label } from '../../../components/ui/input.tsx';
import { Sheet, SheetContent, SheetDescription, SheetTitle } from '../../../components/ui/sheet.tsx';
import { toast } from '../../../components/ui/use-toast.ts';
import { apiErrorMessage } from '../../../lib/api-errors.ts';
import { trpc } from '../../../lib/trpc.ts';
import { DisputeInfo, OrderMoney, OrderStatusBadge, OrderTimeline } from '../../orders/OrderParts.tsx';
import { BasicDashboard } from '../DashboardPage.tsx';
import { AdminPageFrame, EmptyState, formatDateTime, LoadingLine } from './AdminPageFrame.tsx';

const ORDER_STATUSES = [
  'pending_payment',
  'paid',
  'dispatched',
  'delivered',
  'disputed',
  'completed',
  'cancelled',
  'refunded',
] as const;
const PAYMENT_STATUSES = ['pending', 'succeeded', 'failed', 'abandoned'] as const;

function useFilters() {
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const status = params.get('status') ?? '';
  const order = params.get('order');
  const [draft, setDraft] = useState({ q, status });
  useEffect(() => setDraft({ q, status }), [q, status]);
  const update = (change: Record<string, string | null>) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(change)) {
          if (value) next.set(key, value);
          else next.delete(key);
        }
        return next;
      },
      { replace: true },
    );
  return { q, status, order, draft, setDraft, update };
}

function Filters({
  filters,
  statuses,
  label,
}: {
  filters: ReturnType<typeof useFilters>;
  statuses: readonly string[];
  label: string;
}) {
  const { draft, setDraft, update } = filters;
  function submit(event: FormEvent) {
    event.preventDefault();
    update({ q: draft.q.trim() || null, status: draft.status || null, order: null });
  }
  return (
    <form
      onSubmit={submit}
      className="grid gap-3 rounded-xl border border-line bg-paper p-4 sm:grid-cols-[2fr_1fr_auto] sm:items-end"
    >
      <div className="flex flex-col gap-1">
        <Label htmlFor="orders-q">{label}</Label>
        <Input
          id="orders-q"
          value={draft.q}
          onChange={(event) => setDraft((current) => ({ ...current, q: event.target.value }))}
        />
      </div>
      <div className="flex flex-col gap-1">
        <Label htmlFor="orders-status">Status</Label>
        <select
          id="orders-status"
          value={draft.status}
          onChange={(event) => setDraft((current) => ({ ...current, status: event.target.value }))}
          className={`${fieldClasses} h-11`}
        >
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

function pick<T extends string>(values: readonly T[], value: string): T | undefined {
  return (values as readonly string[]).includes(value) ? (value as T) : undefined;
}

function Loading({ what }: { what: string }) {
  return <LoadingLine>Loading {what}…</LoadingLine>;
}

export function OrdersPage() {
  const filters = useFilters();
  const status = pick(ORDER_STATUSES, filters.status);
  const orders = trpc.orders.staff.search.useQuery(
    { ...(filters.q ? { q: filters.q } : {}), ...(status ? { status } : {}), limit: 50 },
    { placeholderData: keepPreviousData },
  );
  return (
    <AdminPageFrame
      title="Orders"
      description="Find an order by reference or by the buyer's or seller's email, read its events, and refund it."
      testId="orders-page"
    >
      <BasicDashboard />
      <Filters filters={filters} statuses={ORDER_STATUSES} label="Reference or email" />
      {orders.isError ? (
        <EmptyState>{apiErrorMessage(orders.error)}</EmptyState>
      ) : orders.isPending ? (
        <Loading what="orders" />
      ) : orders.data.length === 0 ? (
        <EmptyState>No orders match.</EmptyState>
      ) : (
        <ul className="flex flex-col gap-2" data-testid="staff-orders">
          {orders.data.map((row) => (
            <li key={row.id}>
              <button
                type="button"
                data-testid="staff-order"
                onClick={() => filters.update({ order: row.id })}
                className="flex w-full cursor-pointer flex-col gap-1 rounded-xl border border-line bg-paper p-3 text-left hover:border-brand/50 sm:flex-row sm:items-center sm:justify-between"
              >
                <span className="min-w-0">
                  <span className="font-mono font-semibold">{row.reference}</span>{' '}
                  <span className="text-ink-soft">{row.title ?? ''}</span>
                  <span className="block text-sm text-ink-muted break-all">
                    {row.buyerEmail} → {row.sellerEmail} · {formatDateTime(row.createdAt)}
                  </span>
                </span>
                <span className="flex shrink-0 items-center gap-2 tabular-nums">
                  {formatPence(row.totalMinor)}
                  {row.refundedMinor > 0 ? (
                    <span className="text-sm text-ink-muted">
                      ({formatPence(row.refundedMinor)} refunded)
                    </span>
                  ) : null}
                  <OrderStatusBadge status={row.status} />
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <OrderSheet orderId={filters.order} onClose={() => filters.update({ order: null })} />
    </AdminPageFrame>
  );
}

export function PaymentsPage() {
  const filters = useFilters();
  const status = pick(PAYMENT_STATUSES, filters.status);
  const payments = trpc.orders.staff.payments.useQuery(
    { ...(filters.q ? { q: filters.q } : {}), ...(status ? { status } : {}), limit: 50 },
    { placeholderData: keepPreviousData },
  );
  return (
    <AdminPageFrame
      title="Payments"
      description="Every payment taken through the provider, with what has been refunded. Open one to see its order and refund it."
      testId="payments-page"
    >
      <BasicDashboard />
      <Filters
        filters={filters}
        statuses={PAYMENT_STATUSES}
        label="Order reference, buyer email or provider reference"
      />
      {payments.isError ? (
        <EmptyState>{apiErrorMessage(payments.error)}</EmptyState>
      ) : payments.isPending ? (
        <Loading what="payments" />
      ) : payments.data.length === 0 ? (
        <EmptyState>No payments match.</EmptyState>
      ) : (
        <div className="overflow-x-auto rounded-xl border border-line bg-paper">
          <table className="w-full min-w-[40rem] text-left text-sm" data-testid="staff-payments">
            <thead className="border-b border-line text-ink-muted">
              <tr>
                <th className="px-4 py-3 font-semibold">Taken</th>
                <th className="px-4 py-3 font-semibold">Order</th>
                <th className="px-4 py-3 font-semibold">Buyer</th>
                <th className="px-4 py-3 font-semibold">Status</th>
                <th className="px-4 py-3 text-right font-semibold">Amount</th>
                <th className="px-4 py-3 text-right font-semibold">Refunded</th>
              </tr>
            </thead>
            <tbody>
              {payments.data.map((row) => (
                <tr
                  key={row.id}
                  className="border-b border-line/60 last:border-0"
                  data-testid="staff-payment"
                >
                  <td className="px-4 py-3 whitespace-nowrap">{formatDateTime(row.createdAt)}</td>
                  <td className="px-4 py-3">
                    <button
                      type="button"
                      className="cursor-pointer font-mono font-semibold text-brand hover:underline"
                      onClick={() => filters.update({ order: row.orderId })}
                    >
                      {row.reference}
                    </button>
                    <span className="block text-xs text-ink-muted">
                      {row.provider} {row.providerRef}
                    </span>
                  </td>
                  <td className="px-4 py-3 break-all">{row.buyerEmail}</td>
                  <td className="px-4 py-3">{row.status}</td>
                  <td className="px-4 py-3 text-right tabular-nums">{formatPence(row.amountMinor)}</td>
                  <td className="px-4 py-3 text-right tabular-nums">{formatPence(row.refundedMinor)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <OrderSheet orderId={filters.order} onClose={() => filters.update({ order: null })} />
    </AdminPageFrame>
  );
}

function OrderSheet({ orderId, onClose }: { orderId: string | null; onClose: () => void }) {
  return (
    <Sheet open={orderId !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      {orderId ? <OrderView orderId={orderId} /> : null}
    </Sheet>
  );
}

function OrderView({ orderId }: { orderId: string }) {
  const order = trpc.orders.disputes.order.useQuery({ orderId }, { staleTime: 0 });
  return (
    <SheetContent side="right" className="w-full max-w-xl overflow-y-auto" data-testid="order-sheet">
      {order.isError ? (
        <>
          <SheetTitle>Order</SheetTitle>
          <SheetDescription>{apiErrorMessage(order.error)}</SheetDescription>
        </>
      ) : order.isPending ? (
        <>
          <SheetTitle>Order</SheetTitle>
          <SheetDescription>Loading…</SheetDescription>
        </>
      ) : (
        <div className="flex flex-col gap-4">
          <div>
            <SheetTitle className="font-serif text-2xl font-semibold break-words">
              {order.data.title}
            </SheetTitle>
            <SheetDescription className="mt-1 flex flex-wrap items-center gap-2 text-sm text-ink-muted">
              <span className="font-mono">{order.data.reference}</span>
              <OrderStatusBadge status={order.data.status} />
              {order.data.refundedMinor > 0 ? (
                <span>{formatPence(order.data.refundedMinor)} refunded</span>
              ) : null}
            </SheetDescription>
          </div>
          <Refund orderId={orderId} leftMinor={order.data.totalMinor - order.data.refundedMinor} />
          <DisputeInfo order={order.data} />
          <OrderTimeline order={order.data} viewer="staff" />
          <OrderMoney order={order.data} viewer="staff" />
        </div>
      )}
    </SheetContent>
  );
}

/** Pounds typed by a person, as whole pence; null when it is not an amount. */
export function poundsToPence(text: string): number | null {
  const match = /^£?\s*(\d+)(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '0').padEnd(2, '0'));
}

function Refund({ orderId, leftMinor }: { orderId: string; leftMinor: number }) {
  const utils = trpc.useUtils();
  const [full, setFull] = useState(true);
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const refund = trpc.orders.staff.refund.useMutation({
    onSuccess: (result) => {
      toast({
        title: 'Refund sent',
        description: `${formatPence(result.refundedMinor)} refunded on this order in all; it is ${result.status.replace('_', ' ')}.${
          result.sellerDeductedMinor
            ? ` ${formatPence(result.sellerDeductedMinor)} came out of the seller’s payout.`
            : ''
        }`,
      });
      setAmount('');
      setReason('');
      void utils.orders.disputes.order.invalidate({ orderId });
      void utils.orders.staff.invalidate();
      void utils.staff.dashboard.metrics.invalidate();
    },
    onError: (error) =>
      toast({ variant: 'destructive', title: 'Refund not sent', description: apiErrorMessage(error) }),
  });
  if (leftMinor <= 0) return null;
  return (
    <form
      className="flex flex-col gap-3 rounded-xl border border-line bg-paper p-4"
      data-testid="refund-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (full) return refund.mutate({ orderId, amountMinor: 'full', reason });
        const pence = poundsToPence(amount);
        if (pence === null || pence <= 0) {
          toast({
            variant: 'destructive',
            title: 'Refund not sent',
            description: 'Type an amount in pounds and pence, e.g. 2.50.',
          });
          return;
        }
        refund.mutate({ orderId, amountMinor: pence, reason });
      }}
    >
      <h2 className="text-lg font-semibold">Refund the buyer</h2>
      <fieldset className="flex flex-col gap-2 text-sm">
        <legend className="sr-only">How much</legend>
        <label className="flex items-center gap-2">
          <input type="radio" name="refund-kind" checked={full} onChange={() => setFull(true)} />
          Everything left ({formatPence(leftMinor)})
        </label>
        <label className="flex items-center gap-2">
          <input type="radio" name="refund-kind" checked={!full} onChange={() => setFull(false)} />
          Part of it
        </label>
      </fieldset>
      {full ? null : (
        <div className="flex flex-col gap-1">
          <Label htmlFor="refund-amount">Amount (£)</Label>
          <Input
            id="refund-amount"
            inputMode="decimal"
            value={amount}
            onChange={(event) => setAmount(event.target.value)}
            placeholder="e.g. 2.50"
          />
        </div>
      )}
      <div className="flex flex-col gap-1">
        <Label htmlFor="refund-reason">Reason</Label>
        <Input
          id="refund-reason"
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          maxLength={500}
        />
      </div>
      <Button type="submit" variant="destructive" disabled={refund.isPending}>
        <Undo2 aria-hidden="true" />
        Refund
      </Button>
    </form>
  );
}
