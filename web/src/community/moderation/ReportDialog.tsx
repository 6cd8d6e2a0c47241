/**
 * The report form members fill in for a listing, a message sent to them or a review: a reason
 * from the list for that kind of thing (REPORT_REASONS_FOR) and, if they like, details. Reporting the same thing again while our team has it
 * is not an error to fix: the dialog closes and says so.
 */
import {
  REPORT_DETAILS_MAX,
  REPORT_REASON_LABELS,
  REPORT_REASONS_FOR,
  type OfferedReportReason as ReportReason,
  type ReportTargetKind,
} from '@reshelf/contracts';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '../../components/ui/dialog.tsx';
import { Label, Textarea } from '../../components/ui/input.tsx';
import { notify } from '../../components/ui/notify.ts';
import { apiErrorMessage, apiErrorStatus } from '../../lib/api-errors.ts';

export const REPORT_THANKS = 'Thanks — we’ll review this report';

export interface ReportDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** What is reported: it decides the reasons offered. */
  kind: ReportTargetKind;
  title: string;
  description: string;
  /** Sends the report; resolves when the server has it. */
  send: (input: { reason: ReportReason; details?: string }) => Promise<unknown>;
}

export function ReportDialog({ open, onOpenChange, kind, title, description, send }: ReportDialogProps) {
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [details, setDetails] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const id = useId();

  function reset() {
    setReason(null);
    setDetails('');
    setError(null);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!reason) {
      setError('Choose a reason from the list.');
      return;
    }
    setPending(true);
    setError(null);
    try {
      await send({ reason, ...(details.trim() ? { details: details.trim() } : {}) });
      onOpenChange(false);
      reset();
      notify.success(REPORT_THANKS);
    } catch (caught) {
      if (apiErrorStatus(caught) === 409) {
        // Already reported (or already dealt with): nothing left for them to do here.
        onOpenChange(false);
        reset();
        notify.info(apiErrorMessage(caught));
      } else {
        setError(apiErrorMessage(caught));
      }
    } finally {
      setPending(false);
    }
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (next) setError(null);
        onOpenChange(next);
      }}
    >
      <DialogContent>
        <DialogTitle>{title}</DialogTitle>
        <DialogDescription className="mt-2">{description}</DialogDescription>
        <form className="mt-5 flex flex-col gap-4" onSubmit={submit} aria-label={title} noValidate>
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-1 text-sm font-semibold text-ink">What’s wrong?</legend>
            {REPORT_REASONS_FOR[kind].map((value) => (
              <label
                key={value}
                className="flex min-h-11 cursor-pointer items-center gap-3 rounded-lg border border-line px-3 py-2 text-sm has-[:checked]:border-brand has-[:checked]:bg-brand-soft/50"
              >
                <input
                  type="radio"
                  name={`${id}-reason`}
                  value={value}
                  checked={reason === value}
                  onChange={() => {
                    setReason(value);
                    setError(null);
                  }}
                  className="size-4 accent-brand"
                />
                {REPORT_REASON_LABELS[value]}
              </label>
            ))}
          </fieldset>
          <div className="flex flex-col gap-1">
            <Label htmlFor={`${id}-details`}>Details (optional)</Label>
            <Textarea
              id={`${id}-details`}
              value={details}
              maxLength={REPORT_DETAILS_MAX}
              onChange={(event) => setDetails(event.target.value)}
              className="min-h-24"
              aria-describedby={`${id}-details-hint`}
            />
            <p id={`${id}-details-hint`} className="text-xs text-ink-muted">
              Anything that helps our team check it, up to {REPORT_DETAILS_MAX.toLocaleString('en-GB')}{' '}
              characters.
            </p>
          </div>
          {error ? (
            <p role="alert" className="text-sm font-medium text-destructive">
              {error}
            </p>
          ) : null}
          <div className="flex flex-col gap-2 sm:flex-row-reverse">
            <Button type="submit" variant="brand" disabled={pending}>
              Send report
            </Button>
            <Button type="button" variant="ghost" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
