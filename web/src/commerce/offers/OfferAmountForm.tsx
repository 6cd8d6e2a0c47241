import { zodResolver } from '@hookform/resolvers/zod';
import { parsePounds } from '@reshelf/contracts';
import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
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

/** The form's rules: an amount in pounds within the limits, and an optional short message. */
export function offerAmountSchema(limits: OfferAmountLimits) {
  return z.object({
    amount: z.string().transform((text, ctx) => {
      const minor = parsePounds(text);
      const problem =
        minor === null || minor <= 0
          ? 'Enter an amount in pounds, like 4.50'
          : minor < limits.minMinor
            ? limits.tooLow
            : minor > limits.maxMinor
              ? limits.tooHigh
              : null;
      if (problem || minor === null) {
        ctx.addIssue({ code: 'custom', message: problem ?? 'Enter an amount in pounds, like 4.50' });
        return z.NEVER;
      }
      return minor;
    }),
    message: z
      .string()
      .trim()
      .max(MESSAGE_MAX, `Keep your message to ${MESSAGE_MAX} characters`)
      .transform((message) => message || undefined),
  });
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
  const { minMinor, maxMinor, tooLow, tooHigh } = limits;
  const schema = useMemo(
    () => offerAmountSchema({ minMinor, maxMinor, tooLow, tooHigh }),
    [minMinor, maxMinor, tooLow, tooHigh],
  );
  const form = useForm<z.input<typeof schema>, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: { amount: '', message: '' },
  });
  const { errors } = form.formState;
  const submit = form.handleSubmit(({ amount, message }) => onSubmit({ amountMinor: amount, message }));

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4" data-testid={testId}>
      <Field label={label} hint={hint} error={errors.amount?.message}>
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
              {...form.register('amount')}
            />
          </div>
        )}
      </Field>
      <Field label="Message" optional error={errors.message?.message}>
        {(control) => (
          <Textarea {...control} rows={2} maxLength={MESSAGE_MAX + 50} {...form.register('message')} />
        )}
      </Field>
      {error ? <Alert tone="error">{error}</Alert> : null}
      <SubmitButton pending={pending} size="default">
        {submitLabel}
      </SubmitButton>
    </form>
  );
}
