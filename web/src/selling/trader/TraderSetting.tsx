/**
 * Selling as a trade (decision 0073), in the seller's listings: a member says whether they sell
 * as a business (trading name, the address they trade from, company and VAT numbers, an email
 * buyers can reach) or privately. A member who sells often and has not said is asked; nothing
 * switches on its own. A business seller's listings show their details and the buyer's
 * cancellation rights (contracts traders.ts), as a charity's do.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import {
  type BusinessSellerDetails,
  type BusinessSellerInput,
  businessSellerInputSchema,
  CANCELLATION_RULES,
  PRIVATE_SELLER_NOTICE,
  type TraderStatus,
} from '@reshelf/contracts';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Field } from '../../components/form/Field.tsx';
import { SubmitButton } from '../../components/form/SubmitButton.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Input } from '../../components/ui/input.tsx';
import { notify } from '../../components/ui/notify.ts';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { trpc } from '../../lib/trpc.ts';

export function TraderSetting() {
  const utils = trpc.useUtils();
  const status = trpc.selling.trader.status.useQuery({});
  const [editing, setEditing] = useState(false);
  const onSaved = (next: TraderStatus) => {
    utils.selling.trader.status.setData({}, next);
    setEditing(false);
  };
  const declarePrivate = trpc.selling.trader.declarePrivate.useMutation({
    onSuccess: (next) => {
      onSaved(next);
      notify.success('Saved: you sell as a private seller');
    },
    onError: (error) => notify.error(apiErrorMessage(error)),
  });
  if (!status.data) return null;
  const { answer, business, prompt } = status.data;
  return (
    <section
      aria-labelledby="trader-setting-title"
      className={`mt-6 max-w-3xl rounded-xl border p-4 text-sm ${prompt ? 'border-brand bg-brand-soft/40' : 'border-line bg-paper'}`}
      data-testid="trader-setting"
    >
      <h2 id="trader-setting-title" className="font-semibold text-ink">
        Do you sell as a business?
      </h2>
      {prompt ? (
        <p className="mt-1 text-ink" data-testid="trader-prompt">
          You sell often. If you buy books to resell, or sell as your trade, the law treats you as a trader:
          tell us below. If you are clearing your own shelves, say you sell privately.
        </p>
      ) : null}
      {answer === 'business' && business && !editing ? (
        <div className="mt-2 text-ink-soft">
          <p>
            You sell as <strong className="text-ink">{business.tradingName}</strong>, {business.addressLine1}
            {business.addressLine2 ? `, ${business.addressLine2}` : ''}, {business.town}, {business.postcode}
            {business.companyNumber ? ` (company number ${business.companyNumber})` : ''}.
          </p>
          <p className="mt-1">
            Your listings show these details, and your buyers may cancel within{' '}
            {CANCELLATION_RULES.cancelDays} days of delivery.
          </p>
          <div className="mt-3 flex flex-wrap gap-2">
            <Button variant="outline" size="sm" onClick={() => setEditing(true)}>
              Change details
            </Button>
            <Button
              variant="outline"
              size="sm"
              disabled={declarePrivate.isPending}
              onClick={() => declarePrivate.mutate({})}
            >
              I sell privately
            </Button>
          </div>
        </div>
      ) : editing || (answer === 'unanswered' && prompt) ? (
        <BusinessForm
          initial={business}
          onSaved={(next) => {
            onSaved(next);
            notify.success('Saved: your listings show you as a business seller');
          }}
          onPrivate={() => declarePrivate.mutate({})}
          privatePending={declarePrivate.isPending}
        />
      ) : answer === 'unanswered' ? (
        <div className="mt-1 text-ink-soft">
          <p>
            Selling your own books? Nothing to do. If you sell as a business, say so: your listings then show
            your details and your buyers’ right to cancel.
          </p>
          <Button variant="outline" size="sm" className="mt-3" onClick={() => setEditing(true)}>
            I sell as a business
          </Button>
        </div>
      ) : (
        <div className="mt-2 text-ink-soft">
          <p>You sell privately. Your listings say: “{PRIVATE_SELLER_NOTICE}”.</p>
          <Button variant="outline" size="sm" className="mt-3" onClick={() => setEditing(true)}>
            I sell as a business
          </Button>
        </div>
      )}
    </section>
  );
}

function BusinessForm({
  initial,
  onSaved,
  onPrivate,
  privatePending,
}: {
  initial: TraderStatus['business'];
  onSaved: (next: TraderStatus) => void;
  onPrivate: () => void;
  privatePending: boolean;
}) {
  const form = useForm<BusinessSellerInput, unknown, BusinessSellerDetails>({
    resolver: zodResolver(businessSellerInputSchema),
    defaultValues: {
      tradingName: initial?.tradingName ?? '',
      isCompany: initial?.isCompany ?? false,
      companyNumber: initial?.companyNumber ?? '',
      vatNumber: initial?.vatNumber ?? '',
      addressLine1: initial?.addressLine1 ?? '',
      addressLine2: initial?.addressLine2 ?? '',
      town: initial?.town ?? '',
      postcode: initial?.postcode ?? '',
      contactEmail: initial?.contactEmail ?? '',
    },
  });
  const save = trpc.selling.trader.declareBusiness.useMutation({
    onSuccess: onSaved,
    onError: (error) => notify.error(apiErrorMessage(error)),
  });
  const errors = form.formState.errors;
  const isCompany = form.watch('isCompany');
  // Checked here for the messages at each field; the server parses what it is sent again.
  const submit = form.handleSubmit((values) =>
    save
      .mutateAsync({
        ...values,
        companyNumber: values.companyNumber ?? '',
        vatNumber: values.vatNumber ?? '',
        addressLine2: values.addressLine2 ?? '',
      })
      .then(
        () => undefined,
        () => undefined,
      ),
  );
  return (
    <form className="mt-3 flex flex-col gap-3" onSubmit={submit} noValidate>
      <Field label="Trading name" error={errors.tradingName?.message}>
        {(control) => <Input {...control} {...form.register('tradingName')} autoComplete="organization" />}
      </Field>
      <label className="flex items-center gap-2">
        <input type="checkbox" className="size-4 accent-brand" {...form.register('isCompany')} />
        <span>I trade as a company</span>
      </label>
      {isCompany ? (
        <Field label="Company number" error={errors.companyNumber?.message}>
          {(control) => <Input {...control} {...form.register('companyNumber')} />}
        </Field>
      ) : null}
      <Field label="VAT number" optional error={errors.vatNumber?.message}>
        {(control) => <Input {...control} {...form.register('vatNumber')} />}
      </Field>
      <Field
        label="Address line 1"
        hint="The address you trade from: buyers see it. Not a PO box."
        error={errors.addressLine1?.message}
      >
        {(control) => <Input {...control} {...form.register('addressLine1')} autoComplete="address-line1" />}
      </Field>
      <Field label="Address line 2" optional error={errors.addressLine2?.message}>
        {(control) => <Input {...control} {...form.register('addressLine2')} autoComplete="address-line2" />}
      </Field>
      <Field label="Town or city" error={errors.town?.message}>
        {(control) => <Input {...control} {...form.register('town')} autoComplete="address-level2" />}
      </Field>
      <Field label="Postcode" error={errors.postcode?.message}>
        {(control) => <Input {...control} {...form.register('postcode')} autoComplete="postal-code" />}
      </Field>
      <Field label="Email for buyers" error={errors.contactEmail?.message}>
        {(control) => (
          <Input {...control} type="email" {...form.register('contactEmail')} autoComplete="email" />
        )}
      </Field>
      <div className="flex flex-wrap gap-2">
        <SubmitButton pending={save.isPending} className="w-auto" size="default">
          I sell as a business
        </SubmitButton>
        <Button type="button" variant="outline" disabled={privatePending} onClick={onPrivate}>
          I sell privately
        </Button>
      </div>
    </form>
  );
}
