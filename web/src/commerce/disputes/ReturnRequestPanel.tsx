/**
 * The buyer's side of a change-of-mind return, for an order's page (a charity's 14 days, or a
 * private seller's who accepts returns; one return flow): whether the book can go back
 * and until when, the request form (a reason), and then where the request stands (accepted with
 * the address to post it to and the tracking form, declined with the seller's reason, or
 * refunded). Renders nothing for an order whose seller takes no returns.
 */
import {
  CARRIER_IDS,
  CARRIERS,
  changeOfMindTrackingInputSchema,
  formatPence,
  plural,
  RETURN_STATUS_LABELS,
  type ReturnRequest,
  returnReasonSchema,
} from '@reshelf/contracts';
import { Undo2 } from 'lucide-react';
import { useId, useState } from 'react';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { fieldClasses, Input, Textarea } from '../../components/ui/input.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { trpc } from '../../lib/trpc.ts';
import { cn } from '../../lib/utils.ts';

const DATE = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric' });

export function ReturnRequestPanel({ orderId }: { orderId: string }) {
  const utils = trpc.useUtils();
  const eligibility = trpc.commerce.disputes.member.returnEligibility.useQuery({ orderId });
  const request = trpc.commerce.disputes.member.requestReturn.useMutation({
    onSuccess: (data) => utils.commerce.disputes.member.returnEligibility.setData({ orderId }, data),
  });
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  // Several books: which go back (all, until the buyer unticks some).
  const [unticked, setUnticked] = useState<string[]>([]);
  const id = useId();

  if (eligibility.isPending) return <Skeleton className="h-24 rounded-xl" />;
  if (eligibility.isError) return null;
  if (!eligibility.data.returnsOffered && !eligibility.data.request) return null;
  const data = eligibility.data;
  const existing = data.request;
  const returnable = data.books.filter((book) => book.returnable);
  const choosing = returnable.length > 1;
  const chosen = returnable.filter((book) => !unticked.includes(book.orderItemId));
  const several = data.books.length > 1;

  return (
    <section
      aria-labelledby={`${id}-title`}
      className="rounded-xl border border-line bg-paper p-5 shadow-card"
      data-testid="return-panel"
    >
      <h2 id={`${id}-title`} className="flex items-center gap-2 text-lg font-semibold">
        <Undo2 aria-hidden="true" className="size-5 text-moss" />
        {data.windowDays}-day returns
      </h2>
      {existing ? (
        <div className="mt-3 flex flex-col gap-2 text-ink-soft" data-testid="return-status">
          <p className="font-semibold text-ink">{RETURN_STATUS_LABELS[existing.status]}</p>
          <p>
            You asked on {DATE.format(new Date(existing.createdAt))}
            {several ? ` to return ${existing.books.map((book) => book.title).join(', ')}` : ''}: “
            {existing.reason}”
          </p>
          {existing.status === 'requested' ? (
            <p>{existing.charityName} will answer soon; we’ll email you.</p>
          ) : null}
          {existing.status === 'accepted' && existing.returnAddress ? (
            <p>
              Post the book to <strong>{existing.returnAddress}</strong> and keep proof of postage. You’ll be
              refunded as soon as {data.charityOrder ? 'the charity has' : 'the seller has'} it back.
            </p>
          ) : null}
          {existing.returnTrackingRef ? (
            <p data-testid="return-sent">
              You posted it back with {existing.returnCarrier}, tracking {existing.returnTrackingRef}.
            </p>
          ) : existing.status === 'accepted' ? (
            <SendBackForm orderId={orderId} request={existing} />
          ) : null}
          {existing.status === 'declined' ? (
            <p>
              {data.charityOrder ? 'The charity’s' : 'The seller’s'} reason: “{existing.declineReason}”
            </p>
          ) : null}
          {existing.status === 'refunded' && existing.refundMinor ? (
            <p>We refunded {formatPence(existing.refundMinor)} to your payment method.</p>
          ) : null}
        </div>
      ) : data.eligible ? (
        <div className="mt-3 flex flex-col gap-3">
          <p className="text-ink-soft">
            {data.charityOrder
              ? `${plural(data.books.length, 'This book came', 'These books came')} from a charity`
              : 'The seller accepts returns'}
            : you can return {plural(data.books.length, 'it', 'them')} until{' '}
            {data.deadline ? DATE.format(new Date(data.deadline)) : `the end of its ${data.windowDays} days`}
            {data.charityOrder ? '' : ' (you pay the postage to send it back)'}.
          </p>
          {open ? (
            <form
              className="flex flex-col gap-2"
              onSubmit={(event) => {
                event.preventDefault();
                const parsed = returnReasonSchema.safeParse(reason);
                if (!parsed.success) {
                  setInvalid(parsed.error.issues[0]?.message ?? 'Say why you are sending it back');
                  return;
                }
                if (choosing && chosen.length === 0) {
                  setInvalid('Choose the book or books you are returning');
                  return;
                }
                setInvalid(null);
                request.mutate({
                  orderId,
                  reason: parsed.data,
                  ...(choosing ? { itemIds: chosen.map((book) => book.orderItemId) } : {}),
                });
              }}
            >
              {choosing ? (
                <fieldset className="flex flex-col gap-2" data-testid="return-books">
                  <legend className="mb-1 text-sm font-semibold">Which books are you returning?</legend>
                  {returnable.map((book) => (
                    <label key={book.orderItemId} className="flex cursor-pointer items-start gap-3 text-sm">
                      <input
                        type="checkbox"
                        className="mt-0.5 size-4 shrink-0 accent-brand"
                        checked={!unticked.includes(book.orderItemId)}
                        onChange={(event) =>
                          setUnticked((current) =>
                            event.target.checked
                              ? current.filter((other) => other !== book.orderItemId)
                              : [...current, book.orderItemId],
                          )
                        }
                      />
                      <span className="break-words">{book.title}</span>
                    </label>
                  ))}
                </fieldset>
              ) : null}
              <label htmlFor={`${id}-reason`} className="text-sm font-semibold">
                Why are you returning it?
              </label>
              <Textarea
                id={`${id}-reason`}
                value={reason}
                maxLength={1000}
                aria-invalid={Boolean(invalid)}
                onChange={(event) => setReason(event.target.value)}
              />
              {invalid ? <p className="text-sm font-medium text-destructive">{invalid}</p> : null}
              <div className="flex gap-2">
                <Button type="submit" variant="brand" disabled={request.isPending}>
                  Ask to return it
                </Button>
                <Button type="button" variant="ghost" onClick={() => setOpen(false)}>
                  Cancel
                </Button>
              </div>
            </form>
          ) : (
            <Button variant="outline" className="self-start" onClick={() => setOpen(true)}>
              {several ? 'Return books' : 'Return this book'}
            </Button>
          )}
          {request.error ? <Alert tone="error">{apiErrorMessage(request.error)}</Alert> : null}
        </div>
      ) : (
        <p className="mt-3 text-ink-soft">{data.reason}</p>
      )}
    </section>
  );
}

/** The buyer has posted the book back: the carrier and tracking (the same step as a dispute's return). */
function SendBackForm({ orderId, request }: { orderId: string; request: ReturnRequest }) {
  const utils = trpc.useUtils();
  const send = trpc.commerce.disputes.member.returnSentBack.useMutation({
    onSuccess: (data) => utils.commerce.disputes.member.returnEligibility.setData({ orderId }, data),
  });
  const [carrier, setCarrier] = useState('');
  const [tracking, setTracking] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const id = useId();
  return (
    <form
      className="mt-1 flex flex-col gap-2"
      data-testid="return-send-back"
      onSubmit={(event) => {
        event.preventDefault();
        const parsed = changeOfMindTrackingInputSchema.safeParse({
          returnId: request.id,
          carrier,
          trackingRef: tracking,
        });
        if (!parsed.success) {
          setInvalid(parsed.error.issues[0]?.message ?? 'Check the carrier and tracking');
          return;
        }
        setInvalid(null);
        send.mutate(parsed.data);
      }}
    >
      <p className="font-semibold text-ink">Posted it? Add the tracking</p>
      <label htmlFor={`${id}-carrier`} className="text-sm font-semibold">
        Carrier
      </label>
      <select
        id={`${id}-carrier`}
        value={carrier}
        onChange={(event) => setCarrier(event.target.value)}
        className={cn(fieldClasses, 'h-11 pr-8')}
        data-testid="return-carrier"
      >
        <option value="">Choose…</option>
        {CARRIER_IDS.map((carrierId) => (
          <option key={carrierId} value={carrierId}>
            {CARRIERS[carrierId].label}
          </option>
        ))}
      </select>
      <label htmlFor={`${id}-tracking`} className="text-sm font-semibold">
        Tracking reference
      </label>
      <Input
        id={`${id}-tracking`}
        value={tracking}
        onChange={(event) => setTracking(event.target.value)}
        data-testid="return-tracking"
      />
      {invalid ? <p className="text-sm font-medium text-destructive">{invalid}</p> : null}
      {send.error ? <Alert tone="error">{apiErrorMessage(send.error)}</Alert> : null}
      <Button type="submit" variant="brand" className="self-start" disabled={send.isPending}>
        Add tracking
      </Button>
    </form>
  );
}
