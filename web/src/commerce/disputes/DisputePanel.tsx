/**
 * A report with two sides on the order page: what the buyer reported (reason,
 * description, photos), the seller's answer, an offer, a return, and the step the viewer may
 * take now (the server's `can`). The conversation (Message button) carries the talk; each step
 * is a system line there.
 */
import {
  CARRIER_IDS,
  CARRIERS,
  DISPUTE_PROBLEM_LABELS,
  DISPUTE_PROBLEMS,
  type DisputeCase,
  type DisputeProblem,
  formatPence,
  type OrderDetail,
  PROTECTION_RULES,
  parsePounds,
} from '@reshelf/contracts';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { Field } from '../../components/form/Field.tsx';
import { Button } from '../../components/ui/button.tsx';
import { fieldClasses, Input, Textarea } from '../../components/ui/input.tsx';
import { notify } from '../../components/ui/notify.ts';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { formatWhen } from '../../lib/dates.ts';
import { trpc } from '../../lib/trpc.ts';
import { cn } from '../../lib/utils.ts';
import { Panel } from '../orders/OrderParts.tsx';
import { EvidencePicker, PhotoGrid, useEvidencePhotos } from './EvidencePhotos.tsx';

function useRefresh() {
  const utils = trpc.useUtils();
  return () => {
    void utils.commerce.orders.member.invalidate();
    void utils.commerce.disputes.member.invalidate();
    void utils.commerce.disputes.staff.invalidate();
  };
}

// The buyer's report ---------------------------------------------------------------------------

/**
 * The buyer's report: a reason, a description and up to PROTECTION_RULES.maxPhotos photos. With
 * `notReceived` it is the report of a parcel that never came (the reason is fixed, it is about
 * the whole order, and a photo can be a screenshot of the tracking).
 */
export function ReportProblemDialog({
  order,
  open,
  onOpenChange,
  notReceived = false,
}: {
  order: OrderDetail;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  notReceived?: boolean;
}) {
  const refresh = useRefresh();
  const [chosenProblem, setProblem] = useState<DisputeProblem>('not_as_described');
  const problem: DisputeProblem = notReceived ? 'not_received' : chosenProblem;
  const [itemIds, setItemIds] = useState<string[]>([]);
  // A problem with some of several books names them; a parcel that never came is the whole order.
  const books = order.items.filter((item) => item.refundedMinor < item.paidMinor);
  const choose = !notReceived && books.length > 1;
  const [description, setDescription] = useState('');
  const [error, setError] = useState<string | null>(null);
  const photos = useEvidencePhotos(order.id);
  const report = trpc.commerce.disputes.member.report.useMutation({
    onSuccess: () => {
      refresh();
      onOpenChange(false);
      notify.success(
        `Report sent: the seller has ${PROTECTION_RULES.sellerResponseWorkingDays} working days to answer`,
      );
    },
  });
  const problems = DISPUTE_PROBLEMS.filter((p) => p !== 'not_received');
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title={notReceived ? 'It hasn’t arrived' : 'Report a problem'}
      description={
        notReceived
          ? `The carrier’s delivery window has passed. Tell us anything that helps, such as whether the tracking shows it delivered, and add a screenshot of the tracking if you have one. The seller’s payment stays on hold; they have ${PROTECTION_RULES.sellerResponseWorkingDays} working days to answer, and if they don’t, our team decides.`
          : `Tell the seller what’s wrong, with photos. Their payment stays on hold; they have ${PROTECTION_RULES.sellerResponseWorkingDays} working days to answer, and if they don’t, our team decides.`
      }
      confirmLabel={notReceived ? 'Report it missing' : 'Send the report'}
      pending={report.isPending || photos.uploading}
      error={error ?? (report.isError ? apiErrorMessage(report.error) : null)}
      onConfirm={() => {
        if (choose && itemIds.length === 0) return setError('Choose the book or books the problem is with');
        if (description.trim().length < 10)
          return setError('Tell us what went wrong in at least 10 characters');
        setError(null);
        report.mutate({
          orderId: order.id,
          problem,
          description,
          photos: photos.photos,
          ...(choose ? { itemIds } : {}),
        });
      }}
    >
      {notReceived ? null : (
        <Field label="What went wrong?">
          {(control) => (
            <select
              {...control}
              value={problem}
              onChange={(event) => setProblem(event.target.value as DisputeProblem)}
              className={cn(fieldClasses, 'h-11 pr-8')}
              data-testid="report-problem"
            >
              {problems.map((p) => (
                <option key={p} value={p}>
                  {DISPUTE_PROBLEM_LABELS[p]}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
      {choose ? (
        <fieldset className="flex flex-col gap-2" data-testid="report-books">
          <legend className="mb-1 text-sm font-semibold">Which books?</legend>
          {books.map((item) => (
            <label key={item.id} className="flex cursor-pointer items-start gap-3 text-sm">
              <input
                type="checkbox"
                checked={itemIds.includes(item.id)}
                onChange={(event) =>
                  setItemIds((current) =>
                    event.target.checked ? [...current, item.id] : current.filter((id) => id !== item.id),
                  )
                }
                className="mt-0.5 size-4 shrink-0 accent-brand"
              />
              <span className="break-words">{item.title}</span>
            </label>
          ))}
        </fieldset>
      ) : null}
      <Field label={notReceived ? 'What happened?' : 'What’s wrong?'}>
        {(control) => (
          <Textarea
            {...control}
            rows={4}
            value={description}
            maxLength={PROTECTION_RULES.maxText}
            onChange={(event) => setDescription(event.target.value)}
            data-testid="report-description"
          />
        )}
      </Field>
      <EvidencePicker state={photos} />
      <p className="text-xs text-ink-muted">
        <Link to="/help-centre/buyer-protection" className="underline">
          How buyer protection works
        </Link>
      </p>
    </ConfirmDialog>
  );
}

// The case ----------------------------------------------------------------------------------------

const RESPONSE_TEXT = {
  accept_full: 'The seller accepted a full refund',
  offer_partial: 'The seller offered part of the price back',
  ask_return: 'The seller asked for the book back',
  contest: 'The seller disagrees',
} as const;

export function DisputePanel({ orderId }: { orderId: string }) {
  const query = trpc.commerce.disputes.member.forOrder.useQuery({ orderId }, { staleTime: 0 });
  const c = query.data;
  if (!c) return null;
  return (
    <Panel title="Resolving the problem" testId="dispute-case">
      <DisputeCaseView c={c} />
      <DisputeSteps c={c} />
    </Panel>
  );
}

/** Both sides and the evidence (the order page, and staff in /admin/disputes). */
export function DisputeCaseView({ c }: { c: DisputeCase }) {
  return (
    <div className="flex flex-col gap-3 text-sm" data-stage={c.stage} data-testid="dispute-case-view">
      <p className="font-semibold text-ink" data-testid="dispute-stage">
        {c.stateText}
      </p>
      <p className="text-xs text-ink-muted">
        About {c.title} · reported {formatWhen(c.openedAt)}
      </p>
      <div>
        <p className="font-semibold">
          {c.buyerName}: {DISPUTE_PROBLEM_LABELS[c.problem]}
        </p>
        <p className="mt-1 break-words whitespace-pre-line text-ink-soft">“{c.description}”</p>
        <div className="mt-2">
          <PhotoGrid photos={c.photos} />
        </div>
      </div>
      {c.sellerResponse ? (
        <div data-testid="dispute-seller-answer">
          <p className="font-semibold">
            {c.sellerName}: {RESPONSE_TEXT[c.sellerResponse]}
            {c.sellerResponse === 'offer_partial' && c.offerMinor
              ? ` (${formatPence(c.offerMinor)}${c.offerStatus && c.offerStatus !== 'pending' ? `, ${c.offerStatus}` : ''})`
              : ''}
          </p>
          {c.sellerStatement ? (
            <p className="mt-1 break-words whitespace-pre-line text-ink-soft">“{c.sellerStatement}”</p>
          ) : null}
          <div className="mt-2">
            <PhotoGrid photos={c.sellerPhotos} />
          </div>
        </div>
      ) : null}
      {c.returnPostageBy ? (
        <p className="text-ink-soft" data-testid="dispute-return">
          Return postage paid by the {c.returnPostageBy}.
          {c.returnTrackingRef ? ` Sent with ${c.returnCarrier}, tracking ${c.returnTrackingRef}.` : ''}
          {c.returnPostageMinor ? ` Postage paid: ${formatPence(c.returnPostageMinor)}.` : ''}
          {c.returnReceivedAt ? ' The seller has it back.' : ''}
        </p>
      ) : null}
      {c.refundedMinor > 0 ? (
        <p className="font-semibold text-ink" data-testid="dispute-refunded">
          Refunded: {formatPence(c.refundedMinor)}
        </p>
      ) : null}
      {c.resolutionNote && c.stage === 'closed' ? (
        <div className="rounded-lg bg-paper-deep p-3">
          <p className="font-semibold text-ink">
            How it was settled{c.resolvedAt ? `, ${formatWhen(c.resolvedAt)}` : ''}
          </p>
          <p className="mt-1 break-words whitespace-pre-line text-ink-soft" data-testid="dispute-resolution">
            {c.resolutionNote}
          </p>
        </div>
      ) : null}
    </div>
  );
}

type Step =
  | null
  | 'accept_full'
  | 'offer_partial'
  | 'ask_return'
  | 'contest'
  | 'accept'
  | 'refuse'
  | 'tracking'
  | 'received';

function DisputeSteps({ c }: { c: DisputeCase }) {
  const refresh = useRefresh();
  const [step, setStep] = useState<Step>(null);
  const [amount, setAmount] = useState('');
  const [statement, setStatement] = useState('');
  const [carrier, setCarrier] = useState('');
  const [tracking, setTracking] = useState('');
  const [returnPostage, setReturnPostage] = useState('');
  const [error, setError] = useState<string | null>(null);
  const photos = useEvidencePhotos(c.orderId);
  const done = (message: string) => () => {
    refresh();
    setStep(null);
    notify.success(message);
  };
  const respond = trpc.commerce.disputes.member.respond.useMutation({ onSuccess: done('Answer sent') });
  const answer = trpc.commerce.disputes.member.answerOffer.useMutation({
    onSuccess: done('Thanks: we’ve told the seller'),
  });
  const returnTracking = trpc.commerce.disputes.member.returnTracking.useMutation({
    onSuccess: done('Tracking added: we’ve told the seller'),
  });
  const received = trpc.commerce.disputes.member.confirmReturn.useMutation({
    onSuccess: done('Return confirmed: the buyer is refunded'),
  });
  const failure = (m: { isError: boolean; error: unknown }) =>
    m.isError ? apiErrorMessage(m.error as Error) : null;
  const close = (open: boolean) => {
    if (!open) {
      setStep(null);
      setError(null);
    }
  };
  return (
    <div className="mt-4 flex flex-col gap-2 sm:flex-row sm:flex-wrap">
      {c.can.respond ? (
        <>
          <Button variant="brand" onClick={() => setStep('accept_full')}>
            Refund in full
          </Button>
          <Button variant="outline" onClick={() => setStep('offer_partial')}>
            Offer part back
          </Button>
          <Button variant="outline" onClick={() => setStep('ask_return')}>
            Ask for the book back
          </Button>
          <Button variant="outline" onClick={() => setStep('contest')}>
            I disagree
          </Button>
        </>
      ) : null}
      {c.can.answerOffer ? (
        <>
          <Button variant="brand" onClick={() => setStep('accept')}>
            Accept {formatPence(c.offerMinor ?? 0)}
          </Button>
          <Button variant="outline" onClick={() => setStep('refuse')}>
            Refuse the offer
          </Button>
        </>
      ) : null}
      {c.can.addReturnTracking ? (
        <Button variant="brand" onClick={() => setStep('tracking')}>
          Add return tracking
        </Button>
      ) : null}
      {c.can.confirmReturn ? (
        <Button variant="brand" onClick={() => setStep('received')}>
          I have the book back
        </Button>
      ) : null}

      <ConfirmDialog
        open={step === 'accept_full'}
        onOpenChange={close}
        title="Refund the buyer in full?"
        description={`The buyer gets back ${formatPence(c.refundableMinor)}, taken from your payout for this sale, and keeps the book.`}
        confirmLabel="Refund in full"
        pending={respond.isPending}
        error={failure(respond)}
        onConfirm={() => respond.mutate({ disputeId: c.id, response: 'accept_full' })}
      />
      <ConfirmDialog
        open={step === 'offer_partial'}
        onOpenChange={close}
        title="Offer part of the price back"
        description={`The buyer keeps the book and gets this much back if they accept (less than ${formatPence(c.refundableMinor)}). If they refuse, our team decides.`}
        confirmLabel="Send the offer"
        pending={respond.isPending}
        error={error ?? failure(respond)}
        onConfirm={() => {
          const pence = parsePounds(amount);
          if (pence === null || pence <= 0) return setError('Give an amount in pounds, such as 4.00');
          setError(null);
          respond.mutate({ disputeId: c.id, response: 'offer_partial', amountMinor: pence });
        }}
      >
        <Field label="Amount to give back (£)">
          {(control) => (
            <Input
              {...control}
              inputMode="decimal"
              value={amount}
              onChange={(event) => setAmount(event.target.value)}
              data-testid="offer-amount"
            />
          )}
        </Field>
      </ConfirmDialog>
      <ConfirmDialog
        open={step === 'ask_return'}
        onOpenChange={close}
        title="Ask for the book back?"
        description={`The buyer posts it back with tracking (postage paid by the ${PROTECTION_RULES.returnPostageBy[c.problem]}); when you confirm it came, they are refunded ${formatPence(c.refundableMinor)}.`}
        confirmLabel="Ask for it back"
        pending={respond.isPending}
        error={failure(respond)}
        onConfirm={() => respond.mutate({ disputeId: c.id, response: 'ask_return' })}
      />
      <ConfirmDialog
        open={step === 'contest'}
        onOpenChange={close}
        title="Tell us your side"
        description="Our team reads both sides, looks at the photos and decides."
        confirmLabel="Send my side"
        pending={respond.isPending || photos.uploading}
        error={error ?? failure(respond)}
        onConfirm={() => {
          if (statement.trim().length < 10)
            return setError('Tell us why you disagree in at least 10 characters');
          setError(null);
          respond.mutate({ disputeId: c.id, response: 'contest', statement, photos: photos.photos });
        }}
      >
        <Field label="Why do you disagree?">
          {(control) => (
            <Textarea
              {...control}
              rows={4}
              value={statement}
              maxLength={PROTECTION_RULES.maxText}
              onChange={(event) => setStatement(event.target.value)}
            />
          )}
        </Field>
        <EvidencePicker state={photos} />
      </ConfirmDialog>
      <ConfirmDialog
        open={step === 'accept'}
        onOpenChange={close}
        title={`Accept ${formatPence(c.offerMinor ?? 0)}?`}
        description="You keep the book and this much goes back to the card you paid with. The report is then closed."
        confirmLabel="Accept the offer"
        pending={answer.isPending}
        error={failure(answer)}
        onConfirm={() => answer.mutate({ disputeId: c.id, accept: true })}
      />
      <ConfirmDialog
        open={step === 'refuse'}
        onOpenChange={close}
        title="Refuse the offer?"
        description="Our team then looks at both sides and decides."
        confirmLabel="Refuse the offer"
        pending={answer.isPending}
        error={failure(answer)}
        onConfirm={() => answer.mutate({ disputeId: c.id, accept: false })}
      />
      <ConfirmDialog
        open={step === 'tracking'}
        onOpenChange={close}
        title="Add the return tracking"
        description={
          c.returnPostageBy === 'seller'
            ? `When the seller confirms the book came back, you are refunded, with what you paid to post it (up to ${formatPence(PROTECTION_RULES.returnPostageCapMinor)}).`
            : 'When the seller confirms the book came back, you are refunded.'
        }
        confirmLabel="Add tracking"
        pending={returnTracking.isPending}
        error={error ?? failure(returnTracking)}
        onConfirm={() => {
          if (!carrier) return setError('Choose the carrier you sent it with');
          let postageMinor: number | undefined;
          if (c.returnPostageBy === 'seller' && returnPostage.trim() !== '') {
            const pence = parsePounds(returnPostage);
            if (pence === null || pence < 0)
              return setError('Give the postage you paid in pounds, such as 3.85');
            postageMinor = pence;
          }
          setError(null);
          returnTracking.mutate({
            disputeId: c.id,
            carrier: carrier as (typeof CARRIER_IDS)[number],
            trackingRef: tracking,
            ...(postageMinor !== undefined ? { postageMinor } : {}),
          });
        }}
      >
        <Field label="Carrier">
          {(control) => (
            <select
              {...control}
              value={carrier}
              onChange={(event) => setCarrier(event.target.value)}
              className={cn(fieldClasses, 'h-11 pr-8')}
              data-testid="return-carrier"
            >
              <option value="">Choose…</option>
              {CARRIER_IDS.map((id) => (
                <option key={id} value={id}>
                  {CARRIERS[id].label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Tracking reference">
          {(control) => (
            <Input
              {...control}
              value={tracking}
              onChange={(event) => setTracking(event.target.value)}
              data-testid="return-tracking"
            />
          )}
        </Field>
        {c.returnPostageBy === 'seller' ? (
          <Field
            label="Postage you paid (£)"
            hint={`From your receipt. The seller refunds it, up to ${formatPence(PROTECTION_RULES.returnPostageCapMinor)}.`}
          >
            {(control) => (
              <Input
                {...control}
                inputMode="decimal"
                value={returnPostage}
                onChange={(event) => setReturnPostage(event.target.value)}
                data-testid="return-postage"
              />
            )}
          </Field>
        ) : null}
      </ConfirmDialog>
      <ConfirmDialog
        open={step === 'received'}
        onOpenChange={close}
        title="Do you have the book back?"
        description={
          c.returnPostageMinor
            ? `The buyer is refunded for the books they sent back and their return postage (${formatPence(Math.min(c.returnPostageMinor, PROTECTION_RULES.returnPostageCapMinor))}), from your payout for this sale.`
            : `The buyer is refunded for the books they sent back, from your payout for this sale.`
        }
        confirmLabel="Yes, refund the buyer"
        pending={received.isPending}
        error={failure(received)}
        onConfirm={() => received.mutate({ disputeId: c.id })}
      />
    </div>
  );
}
