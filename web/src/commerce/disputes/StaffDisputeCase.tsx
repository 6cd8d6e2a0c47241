/**
 * In /admin/disputes: both sides of a report and their evidence, and the one way staff decide it
 * (`commerce.disputes.staff.decide`, decision 0051): refund the buyer (the books reported, or
 * everything left), a partial refund (any amount up to what is left of the payment), "return
 * first" (the refund waits for the tracked return), or release to the seller. Each asks first,
 * showing the amount, with a note both parties read.
 */
import { formatPence, parsePounds, type StaffDecision } from '@reshelf/contracts';
import { useState } from 'react';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { Field } from '../../components/form/Field.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Input, Textarea } from '../../components/ui/input.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { trpc } from '../../lib/trpc.ts';
import { DisputeCaseView } from './DisputePanel.tsx';

const NOTE_MIN = 5;

export function StaffDisputeCase({ disputeId, onDone }: { disputeId: string; onDone: () => void }) {
  const utils = trpc.useUtils();
  const query = trpc.commerce.disputes.staff.get.useQuery({ disputeId }, { staleTime: 0 });
  const [step, setStep] = useState<StaffDecision | null>(null);
  const [amount, setAmount] = useState('');
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const refresh = () => {
    // The queues (a decided report leaves "Open" at once), the case, the order and the dashboard.
    void utils.commerce.disputes.staff.invalidate();
    void utils.commerce.orders.invalidate();
    void utils.staff.dashboard.metrics.invalidate();
  };
  const decide = trpc.commerce.disputes.staff.decide.useMutation({
    onSuccess: (result) => {
      setStep(null);
      refresh();
      onDone();
      toast({
        title:
          result.stage === 'return'
            ? 'Return ordered'
            : result.refundedMinor > 0
              ? 'Buyer refunded'
              : 'Released to the seller',
        description:
          result.stage === 'return'
            ? `The buyer of ${result.reference} is asked to send the book back.`
            : result.refundedMinor > 0
              ? `${formatPence(result.refundedMinor)} went back to ${result.buyerName} for order ${result.reference}.`
              : `${result.sellerName} is paid for order ${result.reference}.`,
      });
    },
    // Someone else may have decided it first: read it again.
    onError: refresh,
  });
  const c = query.data;
  if (!c) return null;
  const texts: Record<StaffDecision, { title: string; description: string; confirm: string }> = {
    full_refund: {
      title: `Refund ${formatPence(c.fullRefundMinor)} to ${c.buyerName}?`,
      description:
        c.fullRefundMinor < c.refundableMinor
          ? `The buyer gets back what they paid for the books reported (${c.title}); the seller is not paid for them, and the rest of the order completes. This cannot be undone.`
          : 'The buyer gets back everything left of what they paid, and the seller is not paid. This cannot be undone.',
      confirm: 'Refund buyer',
    },
    partial_refund: {
      title: 'Refund part of the order',
      description: `Any amount up to ${formatPence(c.refundableMinor)}. The buyer keeps the book; the order completes with the rest of the seller’s payout.`,
      confirm: 'Refund',
    },
    return_first: {
      title: 'Ask for the book back first?',
      description:
        'The buyer posts the book back with tracking; the refund goes out when the seller confirms it came.',
      confirm: 'Order the return',
    },
    release: {
      title: `Release the payment to ${c.sellerName}?`,
      description: 'The order completes and the seller is paid. This cannot be undone.',
      confirm: 'Release to seller',
    },
  };
  return (
    <section
      aria-label="Both sides"
      className="rounded-xl border border-line bg-paper p-5"
      data-testid="staff-dispute-case"
    >
      <h3 className="font-sans text-lg font-semibold">Both sides</h3>
      <div className="mt-3">
        <DisputeCaseView c={c} />
      </div>
      {c.can.decide ? (
        <div className="mt-4 flex flex-col gap-2 sm:flex-row sm:flex-wrap" data-testid="resolve-panel">
          <Button variant="destructive" onClick={() => setStep('full_refund')}>
            Refund buyer
          </Button>
          <Button variant="outline" onClick={() => setStep('partial_refund')}>
            Partial refund
          </Button>
          {c.stage !== 'return' ? (
            <Button variant="outline" onClick={() => setStep('return_first')}>
              Return first
            </Button>
          ) : null}
          <Button variant="brand" onClick={() => setStep('release')}>
            Release to seller
          </Button>
        </div>
      ) : null}
      <ConfirmDialog
        open={step !== null}
        onOpenChange={(open) => {
          if (!open) {
            setStep(null);
            setError(null);
          }
        }}
        title={step ? texts[step].title : ''}
        description={step ? texts[step].description : ''}
        confirmLabel={step ? texts[step].confirm : ''}
        confirmVariant={step === 'full_refund' ? 'destructive' : 'brand'}
        cancelLabel="Back"
        pending={decide.isPending}
        error={error ?? (decide.isError ? apiErrorMessage(decide.error) : null)}
        onConfirm={() => {
          if (!step) return;
          const pence = step === 'partial_refund' ? parsePounds(amount) : null;
          if (step === 'partial_refund' && (pence === null || pence <= 0)) {
            return setError('Give an amount in pounds, such as 4.00');
          }
          if (note.trim().length < NOTE_MIN)
            return setError(`Write a short note for both parties (at least ${NOTE_MIN} characters)`);
          setError(null);
          decide.mutate({
            disputeId: c.id,
            decision: step,
            note: note.trim(),
            ...(pence !== null ? { amountMinor: pence } : {}),
          });
        }}
      >
        {step === 'partial_refund' ? (
          <Field label="Amount to refund (£)">
            {(control) => (
              <Input
                {...control}
                inputMode="decimal"
                value={amount}
                onChange={(event) => setAmount(event.target.value)}
              />
            )}
          </Field>
        ) : null}
        <Field label="Note to both parties">
          {(control) => (
            <Textarea {...control} rows={3} value={note} onChange={(event) => setNote(event.target.value)} />
          )}
        </Field>
      </ConfirmDialog>
    </section>
  );
}
