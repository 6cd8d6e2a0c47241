/**
 * In /admin/disputes: both sides of a report and their evidence, and the two decisions beside
 * "Refund buyer" and "Release to seller": a partial refund (any amount up to what is left of
 * the payment) and "return first" (the refund waits for the tracked return).
 */
import { formatPence, parsePounds } from '@reshelf/contracts';
import { useState } from 'react';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { Field } from '../../components/form/Field.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Input, Textarea } from '../../components/ui/input.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { trpc } from '../../lib/trpc.ts';
import { DisputeCaseView } from './DisputePanel.tsx';

export function StaffDisputeCase({ disputeId, onDone }: { disputeId: string; onDone: () => void }) {
  const utils = trpc.useUtils();
  const query = trpc.commerce.disputes.staff.get.useQuery({ disputeId }, { staleTime: 0 });
  const [step, setStep] = useState<'partial_refund' | 'return_first' | null>(null);
  const [amount, setAmount] = useState('');
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const decide = trpc.commerce.disputes.staff.decide.useMutation({
    onSuccess: (result) => {
      setStep(null);
      void utils.commerce.orders.invalidate();
      onDone();
      toast({
        title: result.stage === 'return' ? 'Return ordered' : 'Partial refund made',
        description:
          result.stage === 'return'
            ? `The buyer of ${result.reference} is asked to send the book back.`
            : `${formatPence(result.refundedMinor)} went back to ${result.buyerName}.`,
      });
    },
  });
  const c = query.data;
  if (!c) return null;
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
        <div className="mt-4 flex flex-col gap-2 sm:flex-row">
          <Button variant="outline" onClick={() => setStep('partial_refund')}>
            Partial refund
          </Button>
          {c.stage !== 'return' ? (
            <Button variant="outline" onClick={() => setStep('return_first')}>
              Return first
            </Button>
          ) : null}
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
        title={step === 'return_first' ? 'Ask for the book back first?' : 'Refund part of the order'}
        description={
          step === 'return_first'
            ? 'The buyer posts the book back with tracking; the refund goes out when the seller confirms it came.'
            : `Any amount up to ${formatPence(c.refundableMinor)}. The buyer keeps the book; the order completes with the rest of the seller’s payout.`
        }
        confirmLabel={step === 'return_first' ? 'Order the return' : 'Refund'}
        cancelLabel="Back"
        pending={decide.isPending}
        error={error ?? (decide.isError ? apiErrorMessage(decide.error) : null)}
        onConfirm={() => {
          if (!step) return;
          const pence = step === 'partial_refund' ? parsePounds(amount) : null;
          if (step === 'partial_refund' && (pence === null || pence <= 0)) {
            return setError('Give an amount in pounds, such as 4.00');
          }
          if (note.trim().length < 5)
            return setError('Write a short note for both parties (at least 5 characters)');
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
