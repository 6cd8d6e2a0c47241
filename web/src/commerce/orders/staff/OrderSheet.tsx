/**
 * The order sheet of /admin/orders and /admin/payments: the timeline of events, the money, the
 * dispute; admins refund it in full or in part with a reason (the server refuses moderators,
 * shown as a toast).
 */
import { formatPence, type OrderDetail } from '@reshelf/contracts';
import { Undo2 } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { Button } from '../../../components/ui/button.tsx';
import { Input, Label } from '../../../components/ui/input.tsx';
import { Sheet, SheetContent, SheetDescription, SheetTitle } from '../../../components/ui/sheet.tsx';
import { toast } from '../../../components/ui/use-toast.ts';
import { QueryView } from '../../../kit/QueryView.tsx';
import { apiErrorMessage } from '../../../lib/api-errors.ts';
import { trpc } from '../../../lib/trpc.ts';
import { StaffDisputeCase } from '../../disputes/StaffDisputeCase.tsx';
import { OrderBooks } from '../OrderBooks.tsx';
import { OrderMoney, OrderStatusBadge, OrderTimeline } from '../OrderParts.tsx';
import { useRefundOrder } from './hooks.ts';

export function OrderSheet({ orderId, onClose }: { orderId: string | null; onClose: () => void }) {
  return (
    <Sheet open={orderId !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      {orderId ? <OrderView orderId={orderId} /> : null}
    </Sheet>
  );
}

function OrderView({ orderId }: { orderId: string }) {
  const order = trpc.commerce.orders.staff.order.useQuery({ orderId }, { staleTime: 0 });
  return (
    <SheetContent side="right" className="w-full max-w-xl overflow-y-auto" data-testid="order-sheet">
      <QueryView
        query={order}
        pending={
          <>
            <SheetTitle>Order</SheetTitle>
            <SheetDescription>Loading…</SheetDescription>
          </>
        }
        error={(message) => (
          <>
            <SheetTitle>Order</SheetTitle>
            <SheetDescription>{message}</SheetDescription>
          </>
        )}
      >
        {(data) => (
          <div className="flex flex-col gap-4">
            <div>
              <SheetTitle className="font-serif text-2xl font-semibold break-words">{data.title}</SheetTitle>
              <SheetDescription className="mt-1 flex flex-wrap items-center gap-2 text-sm text-ink-muted">
                <span className="font-mono">{data.reference}</span>
                <OrderStatusBadge status={data.status} />
                {data.refundedMinor > 0 ? <span>{formatPence(data.refundedMinor)} refunded</span> : null}
              </SheetDescription>
            </div>
            <Refund
              orderId={orderId}
              leftMinor={data.money.refundableMinor}
              books={data.items.filter((item) => item.refundableMinor > 0)}
            />
            {data.dispute ? <StaffDisputeCase disputeId={data.dispute.id} onDone={() => undefined} /> : null}
            <OrderBooks order={data} viewer="staff" />
            <OrderTimeline order={data} viewer="staff" />
            <OrderMoney order={data} viewer="staff" />
          </div>
        )}
      </QueryView>
    </SheetContent>
  );
}

/** Pounds typed by a person, as whole pence; null when it is not an amount. */
export function poundsToPence(text: string): number | null {
  const match = /^£?\s*(\d+)(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '0').padEnd(2, '0'));
}

function Refund({
  orderId,
  leftMinor,
  books,
}: {
  orderId: string;
  leftMinor: number;
  /** The order's books not yet refunded: with two or more, staff may refund some of them. */
  books: OrderDetail['items'];
}) {
  const form = useForm({
    defaultValues: {
      kind: 'full' as 'full' | 'part' | 'items',
      amount: '',
      reason: '',
      itemIds: [] as string[],
    },
  });
  const kind = form.watch('kind');
  const full = kind === 'full';
  const refund = useRefundOrder({
    onSuccess: (result) => {
      toast({
        title: 'Refund sent',
        description: `${formatPence(result.refundedMinor)} refunded on this order in all; it is ${result.status.replace('_', ' ')}.${
          result.sellerDeductedMinor
            ? ` ${formatPence(result.sellerDeductedMinor)} came out of the seller’s payout.`
            : ''
        }`,
      });
      form.setValue('amount', '');
      form.setValue('reason', '');
    },
    onError: (error) =>
      toast({ variant: 'destructive', title: 'Refund not sent', description: apiErrorMessage(error) }),
  });
  if (leftMinor <= 0) return null;
  return (
    <form
      className="flex flex-col gap-3 rounded-xl border border-line bg-paper p-4"
      data-testid="refund-form"
      onSubmit={form.handleSubmit(({ amount, reason, itemIds }) => {
        if (full) return refund.mutate({ orderId, amountMinor: 'full', reason });
        if (kind === 'items') {
          if (itemIds.length === 0) {
            toast({
              variant: 'destructive',
              title: 'Refund not sent',
              description: 'Choose the books to refund.',
            });
            return;
          }
          return refund.mutate({ orderId, amountMinor: 'items', itemIds, reason });
        }
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
      })}
    >
      <h2 className="text-lg font-semibold">Refund the buyer</h2>
      <fieldset className="flex flex-col gap-2 text-sm">
        <legend className="sr-only">How much</legend>
        <label className="flex items-center gap-2">
          <input type="radio" value="full" {...form.register('kind')} />
          Everything left ({formatPence(leftMinor)})
        </label>
        {books.length > 1 ? (
          <label className="flex items-center gap-2">
            <input type="radio" value="items" {...form.register('kind')} />
            Some of the books (what was paid for them)
          </label>
        ) : null}
        <label className="flex items-center gap-2">
          <input type="radio" value="part" {...form.register('kind')} />
          Part of it
        </label>
      </fieldset>
      {kind === 'items' ? (
        <fieldset className="flex flex-col gap-2 text-sm" data-testid="refund-books">
          <legend className="mb-1 font-semibold">Which books?</legend>
          {books.map((book) => (
            <label key={book.id} className="flex items-start gap-2">
              <input type="checkbox" value={book.id} className="mt-0.5" {...form.register('itemIds')} />
              <span className="break-words">
                {book.title} ({formatPence(book.refundableMinor)})
              </span>
            </label>
          ))}
        </fieldset>
      ) : null}
      {kind !== 'part' ? null : (
        <div className="flex flex-col gap-1">
          <Label htmlFor="refund-amount">Amount (£)</Label>
          <Input
            id="refund-amount"
            inputMode="decimal"
            placeholder="e.g. 2.50"
            {...form.register('amount')}
          />
        </div>
      )}
      <div className="flex flex-col gap-1">
        <Label htmlFor="refund-reason">Reason</Label>
        <Input id="refund-reason" maxLength={500} {...form.register('reason')} />
      </div>
      <Button type="submit" variant="destructive" disabled={refund.isPending}>
        <Undo2 aria-hidden="true" />
        Refund
      </Button>
    </form>
  );
}
