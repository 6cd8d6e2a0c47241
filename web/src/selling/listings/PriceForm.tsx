import { zodResolver } from '@hookform/resolvers/zod';
import {
  CONDITION_LABELS,
  formatPence,
  PARCEL_SIZE_LABELS,
  PARCEL_SIZES,
  type ParcelSize,
  parsePounds,
  plural,
  priceFarAboveSuggestion,
  SELLING_MESSAGES,
  SELLING_WARNINGS,
  type SellerListing,
} from '@reshelf/contracts';
import { Lightbulb } from 'lucide-react';
import { type ReactNode, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { FairPriceSuggestion } from '../../commerce/index.ts';
import { Field } from '../../components/form/Field.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { apiErrorMessage, apiFieldErrors } from '../../lib/api-errors.ts';
import { trpc } from '../../lib/trpc.ts';
import { cn } from '../../lib/utils.ts';
import { poundsText, priceTextSchema, useSaveListing } from './sell-state.ts';
import { StepFormFooter } from './WizardFrame.tsx';

type PriceField = 'price' | 'parcel';

function schemaFor(fields: PriceField[]) {
  return z.object({
    price: fields.includes('price') ? priceTextSchema : z.string().optional(),
    parcelSize: fields.includes('parcel')
      ? z.enum(PARCEL_SIZES, SELLING_MESSAGES.parcelMissing)
      : z.enum(PARCEL_SIZES).optional(),
  });
}

/**
 * The asking price (with what similar copies sell for) and/or the parcel size (with the
 * postage the buyer pays for it). The wizard asks one per step; the edit page both at once.
 */
export function PriceForm({
  listing,
  fields,
  onSaved,
  submitLabel,
  back,
}: {
  listing: SellerListing;
  fields: PriceField[];
  onSaved: (listing: SellerListing) => void;
  submitLabel: string;
  back?: ReactNode;
}) {
  const save = useSaveListing();
  const [problem, setProblem] = useState<string | null>(null);
  const schema = schemaFor(fields);
  const form = useForm<z.input<typeof schema>, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: {
      price: poundsText(listing.priceMinor),
      parcelSize: listing.parcelSize ?? (undefined as unknown as ParcelSize),
    },
    mode: 'onTouched',
  });
  const { errors, isSubmitting } = form.formState;
  const parcel = form.watch('parcelSize');
  const groupId = useId();

  const onSubmit = form.handleSubmit(async (values) => {
    setProblem(null);
    try {
      const saved = await save.mutateAsync({
        listingId: listing.id,
        ...(fields.includes('price') ? { priceMinor: values.price as number } : {}),
        ...(fields.includes('parcel') && values.parcelSize ? { parcelSize: values.parcelSize } : {}),
      });
      onSaved(saved);
    } catch (error) {
      const fieldErrors = apiFieldErrors(error);
      if (fieldErrors.priceMinor) form.setError('price', { message: fieldErrors.priceMinor });
      else setProblem(apiErrorMessage(error));
    }
  });

  return (
    <form
      noValidate
      onSubmit={onSubmit}
      aria-label={fields.includes('price') ? 'Price' : 'Postage'}
      className="flex flex-col gap-6"
    >
      {fields.includes('price') ? (
        <div className="flex flex-col gap-4">
          <Field
            label="Your price"
            hint="Buyers pay postage and buyer protection on top: you get the whole price."
            error={errors.price?.message}
          >
            {(control) => (
              <div className="relative max-w-56">
                <span
                  aria-hidden="true"
                  className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-lg text-ink-muted"
                >
                  £
                </span>
                <Input
                  {...control}
                  {...form.register('price')}
                  inputMode="decimal"
                  autoComplete="off"
                  placeholder="4.50"
                  className="pl-8 text-lg"
                  data-testid="price-input"
                />
              </div>
            )}
          </Field>
          <FairPriceSuggestion
            bookId={listing.book?.id}
            condition={listing.condition}
            format={listing.format}
            onUse={(pence) =>
              form.setValue('price', poundsText(pence), { shouldValidate: true, shouldDirty: true })
            }
          />
          <PriceSuggestion
            listing={listing}
            typedMinor={parsePounds(form.watch('price') ?? '')}
            onUse={(pence) =>
              form.setValue('price', poundsText(pence), { shouldValidate: true, shouldDirty: true })
            }
          />
        </div>
      ) : null}
      {fields.includes('parcel') ? (
        <fieldset aria-describedby={errors.parcelSize ? `${groupId}-error` : undefined}>
          <legend className="text-sm font-semibold text-ink">Parcel size</legend>
          <p className="mt-1 text-sm text-ink-muted">
            Pick the size it will post in. The buyer pays the postage shown.
          </p>
          <div className="mt-3 grid gap-3 sm:grid-cols-3" data-testid="parcel-options">
            {PARCEL_SIZES.map((size) => (
              <label
                key={size}
                className={cn(
                  'flex cursor-pointer flex-col gap-1 rounded-xl border bg-paper p-4 transition-colors has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand',
                  parcel === size ? 'border-brand bg-brand-soft/50' : 'border-line hover:border-ink/30',
                )}
              >
                <span className="flex items-center gap-2">
                  <input
                    type="radio"
                    value={size}
                    {...form.register('parcelSize')}
                    className="size-4 accent-brand"
                  />
                  <span className="font-semibold text-ink">{PARCEL_SIZE_LABELS[size].name}</span>
                </span>
                <span className="text-sm text-ink-muted">{PARCEL_SIZE_LABELS[size].hint}</span>
                <span className="mt-1 text-sm font-semibold text-moss" data-testid={`postage-${size}`}>
                  Buyer pays {formatPence(listing.postageMinor[size])} postage
                </span>
              </label>
            ))}
          </div>
          {errors.parcelSize ? (
            <p
              id={`${groupId}-error`}
              className="mt-2 text-sm font-medium text-destructive"
              data-testid="field-error"
            >
              {errors.parcelSize.message}
            </p>
          ) : null}
        </fieldset>
      ) : null}
      <StepFormFooter problem={problem} back={back} pending={isSubmitting} submitLabel={submitLabel} />
    </form>
  );
}

/**
 * What similar copies sell for, and a warning (not a refusal) when the price typed is
 * far above it (priceFarAboveSuggestion, the rule the review step's warning uses too).
 */
function PriceSuggestion({
  listing,
  typedMinor,
  onUse,
}: {
  listing: SellerListing;
  typedMinor: number | null;
  onUse: (pence: number) => void;
}) {
  const suggestion = trpc.selling.listings.priceSuggestion.useQuery(
    { listingId: listing.id },
    { staleTime: 60_000 },
  );
  if (suggestion.isPending) {
    return (
      <div
        role="status"
        aria-busy="true"
        aria-label="Looking at similar copies"
        className="flex flex-col gap-2"
      >
        <Skeleton className="h-4 w-64 max-w-full" />
        <Skeleton className="h-4 w-48" />
      </div>
    );
  }
  const data = suggestion.data;
  if (!data) return null;
  const where =
    data.basis === 'same_book'
      ? `${plural(data.sampleSize, 'Another copy', `${data.sampleSize} other copies`)} of this book ${plural(data.sampleSize, 'is', 'are')} for sale`
      : `${data.sampleSize} ${listing.book?.category?.name ?? 'similar'} ${plural(data.sampleSize, 'book', 'books')} in ${
          listing.condition ? CONDITION_LABELS[listing.condition].toLowerCase() : 'the same'
        } condition ${plural(data.sampleSize, 'is', 'are')} for sale`;
  const range =
    data.lowMinor === data.highMinor
      ? `at ${formatPence(data.lowMinor)}`
      : `from ${formatPence(data.lowMinor)} to ${formatPence(data.highMinor)}`;
  const farAbove = typedMinor !== null && priceFarAboveSuggestion(typedMinor, data.suggestedMinor);
  return (
    <>
      <div
        className="flex flex-col gap-3 rounded-xl border border-accent/50 bg-accent/10 p-4 sm:flex-row sm:items-center sm:justify-between"
        data-testid="price-suggestion"
      >
        <p className="flex gap-2 text-sm text-ink-soft">
          <Lightbulb aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-accent-foreground" />
          <span>
            {where} {range}. We suggest{' '}
            <strong className="text-ink">{formatPence(data.suggestedMinor)}</strong>.
          </span>
        </p>
        <Button
          variant="outline"
          size="sm"
          // As the fair price's button: no blur first, so the field's error cannot move it away.
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => onUse(data.suggestedMinor)}
        >
          Use {formatPence(data.suggestedMinor)}
        </Button>
      </div>
      {farAbove ? (
        <Alert tone="warning" data-testid="price-warning">
          {SELLING_WARNINGS.priceFarAbove(typedMinor, data.suggestedMinor)}
        </Alert>
      ) : null}
    </>
  );
}
