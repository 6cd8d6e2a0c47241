/**
 * The private seller's side of a change-of-mind return, on their sale page (a private
 * seller who accepts returns runs the same return flow as a charity): the buyer's request, then
 * accept (saying where to post it) or decline (with a reason), the buyer's tracking once posted,
 * and "the book is back", which refunds the buyer from the payout (the answers are ReturnAnswer,
 * shared with the charity dashboard). Renders nothing when the buyer has not asked.
 */
import { formatPence, SELLER_RETURN_STATUS_LABELS } from '@reshelf/contracts';
import { Undo2 } from 'lucide-react';
import { useId } from 'react';
import { trpc } from '../../lib/trpc.ts';
import { ReturnAnswer } from './ReturnAnswer.tsx';

const DATE = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric' });

export function SaleReturnPanel({ orderId }: { orderId: string }) {
  const utils = trpc.useUtils();
  const current = trpc.commerce.disputes.member.saleReturn.useQuery({ orderId });
  const done = () => {
    void utils.commerce.disputes.member.saleReturn.invalidate({ orderId });
    void utils.commerce.orders.member.get.invalidate({ orderId });
  };
  const accept = trpc.commerce.disputes.member.acceptReturn.useMutation({ onSuccess: done });
  const decline = trpc.commerce.disputes.member.declineReturn.useMutation({ onSuccess: done });
  const receive = trpc.commerce.disputes.member.receiveReturn.useMutation({ onSuccess: done });
  const id = useId();
  const item = current.data;
  if (!item) return null;
  return (
    <section
      aria-labelledby={`${id}-title`}
      className="rounded-xl border border-line bg-paper p-5 shadow-card"
      data-testid="sale-return"
    >
      <h2 id={`${id}-title`} className="flex items-center gap-2 text-lg font-semibold">
        <Undo2 aria-hidden="true" className="size-5 text-moss" />
        Return requested
      </h2>
      <div className="mt-3 flex flex-col gap-2 text-ink-soft">
        <p className="font-semibold text-ink">{SELLER_RETURN_STATUS_LABELS[item.status]}</p>
        <p>
          {item.buyerName ?? 'The buyer'} asked on {DATE.format(new Date(item.createdAt))} to return{' '}
          {item.title}: “{item.reason}”
        </p>
        {item.returnAddress ? <p>To be posted to: {item.returnAddress}</p> : null}
        {item.returnTrackingRef ? (
          <p data-testid="sale-return-tracking">
            Posted back with {item.returnCarrier}, tracking {item.returnTrackingRef}
          </p>
        ) : null}
        {item.declineReason ? <p>You declined: “{item.declineReason}”</p> : null}
        {item.refundMinor ? <p>Refunded {formatPence(item.refundMinor)} to the buyer.</p> : null}
      </div>
      <ReturnAnswer item={item} asksAddress accept={accept} decline={decline} receive={receive} />
    </section>
  );
}
