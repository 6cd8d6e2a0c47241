import { parsePounds } from '@reshelf/contracts';
import { type FormEvent, useState } from 'react';
import { Field } from '../../components/form/Field.tsx';
import { SubmitButton } from '../../components/form/SubmitButton.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Input, Textarea } from '../../components/ui/input.tsx';

const MESSAGE_MAX = 500;

export interface OfferAmountLimits {
  /** The least the amount may be, in pence (inclusive). */
  minMinor: number;
  /** The most the amount may be, in pence (inclusive). */
  maxMinor: number;
  tooLow: string;
  tooHigh: string;
}

/**
 * An amount in pounds and an optional message: the opening offer and a counter-offer. The
 * limits are checked here so a person hears at once; the server checks them again and its
 * answer (shown as `error`) is the one that counts.
 */
export function OfferAmountForm({
  label,
  hint,
  limits,
  submitLabel,
  pending,
  error,
  onSubmit,
  testId,
}: {
  label: string;
  hint: string;
  limits: OfferAmountLimits;
  submitLabel: string;
  pending: boolean;
  error: string | null;
  onSubmit: (input: { amountMinor: number; message?: string }) => void;
  testId?: string;
}) {
  const [amount, setAmount] = useState('');
  const [message, setMessage] = useState('');
  const [amountError, setAmountError] = useState<string | undefined>();
  const [messageError, setMessageError] = useState<string | undefined>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const minor = parsePounds(amount);
    let problem: string | undefined;
    if (minor === null || minor <= 0) problem = 'Enter an amount in pounds, like 4.50';
    else if (minor < limits.minMinor) problem = limits.tooLow;
    else if (minor > limits.maxMinor) problem = limits.tooHigh;
    const tooLong =
      message.trim().length > MESSAGE_MAX ? `Keep your message to ${MESSAGE_MAX} characters` : undefined;
    setAmountError(problem);
    setMessageError(tooLong);
    if (problem || tooLong || minor === null) return;
    onSubmit({ amountMinor: minor, message: message.trim() || undefined });
  };

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4" data-testid={testId}>
      <Field label={label} hint={hint} error={amountError}>
        {(control) => (
          <div className="relative">
            <span
              aria-hidden="true"
              className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-ink-muted"
            >
              £
            </span>
            <Input
              {...control}
              inputMode="decimal"
              autoComplete="off"
              className="pl-7"
              value={amount}
              onChange={(event) => setAmount(event.target.value)}
            />
          </div>
        )}
      </Field>
      <Field label="Message" optional error={messageError}>
        {(control) => (
          <Textarea
            {...control}
            rows={2}
            maxLength={MESSAGE_MAX + 50}
            value={message}
            onChange={(event) => setMessage(event.target.value)}
          />
        )}
      </Field>
      {error ? <Alert tone="error">{error}</Alert> : null}
      <SubmitButton pending={pending} size="default">
        {submitLabel}
      </SubmitButton>
    </form>
  );
}
