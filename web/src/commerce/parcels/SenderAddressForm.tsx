/**
 * "Add the address you post from": asked for in the Post it panel when a seller with no saved
 * address presses "Get label" (the server's ADD_SENDER_ADDRESS). Saved as their default address
 * (the same rule as checkout's), then the label is bought.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { addressInputSchema } from '@reshelf/contracts';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { Field } from '../../components/form/Field.tsx';
import { SubmitButton } from '../../components/form/SubmitButton.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Input } from '../../components/ui/input.tsx';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { trpc } from '../../lib/trpc.ts';

const FIELDS = [
  { name: 'fullName', label: 'Your name', autoComplete: 'name' },
  { name: 'line1', label: 'Address line 1', autoComplete: 'address-line1' },
  { name: 'line2', label: 'Address line 2', autoComplete: 'address-line2', optional: true },
  { name: 'town', label: 'Town or city', autoComplete: 'address-level2' },
  { name: 'postcode', label: 'Postcode', autoComplete: 'postal-code' },
] as const;

export function SenderAddressForm({ onSaved }: { onSaved: () => void }) {
  const save = trpc.commerce.checkout.saveAddress.useMutation({ onSuccess: onSaved });
  const form = useForm<z.input<typeof addressInputSchema>, unknown, z.output<typeof addressInputSchema>>({
    resolver: zodResolver(addressInputSchema),
    defaultValues: { fullName: '', line1: '', line2: '', town: '', postcode: '' },
    reValidateMode: 'onSubmit',
  });
  const { errors } = form.formState;
  const submit = form.handleSubmit((address) => save.mutate({ address, makeDefault: true }));
  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-3" aria-label="The address you post from">
      <div className="grid gap-3 sm:grid-cols-2">
        {FIELDS.map((field) => (
          <Field
            key={field.name}
            label={field.label}
            optional={'optional' in field}
            error={errors[field.name]?.message}
          >
            {(control) => (
              <Input {...control} {...form.register(field.name)} autoComplete={field.autoComplete} />
            )}
          </Field>
        ))}
      </div>
      {save.isError ? <Alert tone="error">{apiErrorMessage(save.error)}</Alert> : null}
      <SubmitButton pending={save.isPending} size="default" className="sm:w-auto sm:self-start">
        Save and get the label
      </SubmitButton>
    </form>
  );
}
