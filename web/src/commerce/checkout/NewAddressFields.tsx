/**
 * The fields of a new delivery address and "Save this address for next time", as both checkouts
 * (one book, the basket) ask for them. The form is the page's (react-hook-form with
 * addressInputSchema); the page decides what saving means.
 */
import type { addressInputSchema } from '@reshelf/contracts';
import type { ReactNode } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { Field } from '../../components/form/Field.tsx';
import { Input } from '../../components/ui/input.tsx';

export type AddressValues = z.input<typeof addressInputSchema>;

export function NewAddressFields({
  form,
  saveForNextTime,
  onSaveForNextTime,
  saveHint,
}: {
  form: UseFormReturn<AddressValues>;
  saveForNextTime: boolean;
  onSaveForNextTime: (save: boolean) => void;
  /** A line under "Save this address for next time". */
  saveHint?: ReactNode;
}) {
  const { errors } = form.formState;
  return (
    <div className="flex flex-col gap-4">
      <Field label="Full name" error={errors.fullName?.message}>
        {(control) => <Input {...control} autoComplete="name" {...form.register('fullName')} />}
      </Field>
      <Field label="Address line 1" error={errors.line1?.message}>
        {(control) => <Input {...control} autoComplete="address-line1" {...form.register('line1')} />}
      </Field>
      <Field label="Address line 2" optional error={errors.line2?.message}>
        {(control) => <Input {...control} autoComplete="address-line2" {...form.register('line2')} />}
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Town or city" error={errors.town?.message}>
          {(control) => <Input {...control} autoComplete="address-level2" {...form.register('town')} />}
        </Field>
        <Field label="Postcode" error={errors.postcode?.message}>
          {(control) => (
            <Input
              {...control}
              autoComplete="postal-code"
              className="uppercase"
              {...form.register('postcode')}
            />
          )}
        </Field>
      </div>
      <label className="flex cursor-pointer items-start gap-3 text-sm">
        <input
          type="checkbox"
          className="mt-0.5 size-4 shrink-0 accent-brand"
          checked={saveForNextTime}
          onChange={(event) => onSaveForNextTime(event.target.checked)}
        />
        <span>
          <span className="font-semibold text-ink">Save this address for next time</span>
          {saveHint ? <span className="block text-ink-muted">{saveHint}</span> : null}
        </span>
      </label>
    </div>
  );
}
