/**
 * The private seller's side of a change-of-mind return, on their sale page (issue 25: a private
 * seller who accepts returns runs the same return flow as a charity): the buyer's request, then
 * accept (saying where to post it) or decline (with a reason), the buyer's tracking once posted,
 * and "the book is back", which refunds the buyer from the payout. Renders nothing when the
 * buyer has not asked.
 */
import { declineReasonSchema, formatPence, RETURN_STATUS_LABELS } from '@reshelf/contracts';
import { Undo2 } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Textarea } from '../../components/ui/input.tsx';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { trpc } from '../../lib/trpc.ts';

const DATE = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric' });

export function SaleReturnPanel({ orderId }: { orderId: string }) {
  const utils = trpc.useUtils();
  const current = trpc.orders.resolution.saleReturn.useQuery({ orderId });
  const done = () => {
    void utils.orders.resolution.saleReturn.invalidate({ orderId });
    void utils.orders.member.get.invalidate({ orderId });
  };
  const accept = trpc.orders.resolution.acceptReturn.useMutation({ onSuccess: done });
  const decline = trpc.orders.resolution.declineReturn.useMutation({ onSuccess: done });
  const receive = trpc.orders.resolution.receiveReturn.useMutation({ onSuccess: done });
  const [step, setStep] = useState<null | 'accept' | 'decline'>(null);
  const [text, setText] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const id = useId();
  const item = current.data;
  if (!item) return null;
  const error = accept.error ?? decline.error ?? receive.error;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (step === 'accept') {
      if (text.trim().length < 5) return setInvalid('Give the address the buyer should post the book to');
      setInvalid(null);
      accept.mutate({ returnId: item.id, address: text });
    } else {
      const parsed = declineReasonSchema.safeParse(text);
      if (!parsed.success) return setInvalid(parsed.error.issues[0]?.message ?? 'Give a reason');
      setInvalid(null);
      decline.mutate({ returnId: item.id, reason: parsed.data });
    }
  };
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
        <p className="font-semibold text-ink">{RETURN_STATUS_LABELS[item.status]}</p>
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
      {item.status === 'requested' && step === null ? (
        <div className="mt-3 flex flex-wrap gap-2">
          <Button variant="brand" onClick={() => setStep('accept')}>
            Accept the return
          </Button>
          <Button variant="outline" onClick={() => setStep('decline')}>
            Decline
          </Button>
        </div>
      ) : null}
      {item.status === 'requested' && step !== null ? (
        <form className="mt-3 flex flex-col gap-2" onSubmit={submit}>
          <label htmlFor={`${id}-text`} className="text-sm font-semibold">
            {step === 'accept'
              ? 'Where should the buyer post it? (your name and address)'
              : 'Why are you declining? The buyer will read this.'}
          </label>
          <Textarea
            id={`${id}-text`}
            value={text}
            maxLength={step === 'accept' ? 300 : 1000}
            aria-invalid={Boolean(invalid)}
            onChange={(event) => setText(event.target.value)}
          />
          {invalid ? <p className="text-sm font-medium text-destructive">{invalid}</p> : null}
          <div className="flex gap-2">
            <Button
              type="submit"
              variant={step === 'accept' ? 'brand' : 'destructive'}
              disabled={accept.isPending || decline.isPending}
            >
              {step === 'accept' ? 'Accept and send the address' : 'Decline the return'}
            </Button>
            <Button type="button" variant="ghost" onClick={() => setStep(null)}>
              Cancel
            </Button>
          </div>
        </form>
      ) : null}
      {item.status === 'accepted' ? (
        <Button
          variant="brand"
          className="mt-3"
          disabled={receive.isPending}
          onClick={() => receive.mutate({ returnId: item.id })}
        >
          The book is back: refund the buyer
        </Button>
      ) : null}
      {error ? (
        <Alert tone="error" className="mt-3">
          {apiErrorMessage(error)}
        </Alert>
      ) : null}
    </section>
  );
}
