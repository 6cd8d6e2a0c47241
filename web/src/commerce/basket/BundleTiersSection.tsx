/**
 * Bundle discount tiers: "2 books: 5% off, 3 books: 10% off" for a buyer taking several books
 * in one parcel. Off by default; up to three tiers, rising in both books and percentage (the
 * shared `bundleTiersSchema` checks here and again on the server). Used for a seller's own
 * books (account settings) and for a charity's shop (charity dashboard).
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { BUNDLE_TIER_LIMITS, type BundleTier, bundleTiersSchema } from '@reshelf/contracts';
import { Plus, Tag, Trash2 } from 'lucide-react';
import { useEffect } from 'react';
import { useFieldArray, useForm } from 'react-hook-form';
import { z } from 'zod';
import { Field } from '../../components/form/Field.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Input } from '../../components/ui/input.tsx';
import { notify } from '../../components/ui/notify.ts';
import { showServerError } from '../../kit/index.ts';
import { trpc } from '../../lib/trpc.ts';
import { cn } from '../../lib/utils.ts';
import { tiersText } from './basket-view.ts';

const wholeNumber = z
  .string()
  .trim()
  .transform((text) => (text === '' ? Number.NaN : Number(text)));

/** The form's values are the inputs' text; what it submits is the tiers, checked by the shared rules. */
export const tiersFormSchema = z.object({
  tiers: z.array(z.object({ minBooks: wholeNumber, percent: wholeNumber })).pipe(bundleTiersSchema),
});
type TiersFormInput = z.input<typeof tiersFormSchema>;
type TiersFormOutput = z.output<typeof tiersFormSchema>;

const SUGGESTED: BundleTier[] = [
  { minBooks: 2, percent: 5 },
  { minBooks: 3, percent: 10 },
  { minBooks: 5, percent: 15 },
];

function toInput(tiers: readonly BundleTier[]): TiersFormInput {
  return { tiers: tiers.map((tier) => ({ minBooks: String(tier.minBooks), percent: String(tier.percent) })) };
}

export function BundleTiersSection({
  owner,
  className = 'mt-8',
}: {
  owner: 'seller' | 'charity';
  className?: string;
}) {
  const utils = trpc.useUtils();
  const sellerTiers = trpc.account.member.bundleTiers.get.useQuery(undefined, {
    enabled: owner === 'seller',
  });
  const charityTiers = trpc.charities.bundleTiers.get.useQuery(undefined, { enabled: owner === 'charity' });
  const current = owner === 'seller' ? sellerTiers : charityTiers;
  const onSaved = (tiers: readonly BundleTier[]) => {
    void utils.commerce.basket.invalidate();
    notify.success(
      tiers.length ? `Bundle discounts saved: ${tiersText(tiers)}` : 'Bundle discounts turned off',
    );
  };
  const saveSeller = trpc.account.member.bundleTiers.set.useMutation({
    onSuccess: (saved) => {
      utils.account.member.bundleTiers.get.setData(undefined, saved);
      onSaved(saved.tiers);
    },
  });
  const saveCharity = trpc.charities.bundleTiers.set.useMutation({
    onSuccess: (saved) => {
      utils.charities.bundleTiers.get.setData(undefined, saved);
      onSaved(saved.tiers);
    },
  });
  const save = owner === 'seller' ? saveSeller.mutateAsync : saveCharity.mutateAsync;
  const form = useForm<TiersFormInput, unknown, TiersFormOutput>({
    resolver: zodResolver(tiersFormSchema),
    defaultValues: { tiers: [] },
  });
  const tiers = useFieldArray({ control: form.control, name: 'tiers' });
  const loaded = current.data;
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the saved tiers arrive or change.
  useEffect(() => {
    if (loaded) form.reset(toInput(loaded.tiers));
  }, [loaded]);

  const submit = form.handleSubmit(async (values) => {
    try {
      await save({ tiers: values.tiers });
    } catch (error) {
      showServerError(form as never, error);
    }
  });
  const errors = form.formState.errors;
  const listError = errors.tiers?.root?.message ?? errors.tiers?.message;
  const serverError = errors.root?.server?.message;
  const who = owner === 'seller' ? 'your books' : 'your shop’s books';

  return (
    <section
      aria-labelledby={`bundle-${owner}-heading`}
      data-testid="bundle-tiers"
      className={cn(
        'flex flex-col gap-4 rounded-xl border border-line bg-paper p-5 shadow-card sm:p-6',
        className,
      )}
    >
      <h2 id={`bundle-${owner}-heading`} className="flex items-center gap-2.5 text-xl font-semibold">
        <span className="flex size-9 items-center justify-center rounded-full bg-brand-soft text-brand">
          <Tag aria-hidden="true" className="size-4.5" />
        </span>
        Bundle discounts
      </h2>
      <p className="text-ink-soft">
        Take a percentage off when a buyer takes several of {who} in one parcel. It comes off the books’
        prices, and they pay one postage. Up to {BUNDLE_TIER_LIMITS.maxTiers} tiers, each for more books and a
        bigger discount than the one before. With no tiers, bundle discounts are off.
      </p>
      {current.isError ? <Alert tone="error">{current.error.message}</Alert> : null}
      {current.isPending ? (
        <p role="status" className="text-sm text-ink-muted">
          Loading your bundle discounts…
        </p>
      ) : (
        <form noValidate onSubmit={submit} className="flex flex-col gap-4" aria-label="Bundle discounts">
          {tiers.fields.length === 0 ? (
            <p
              className="rounded-lg border border-dashed border-line p-4 text-sm text-ink-muted"
              data-testid="tiers-off"
            >
              Bundle discounts are off.
            </p>
          ) : (
            <ol className="flex flex-col gap-3">
              {tiers.fields.map((field, index) => (
                <li
                  key={field.id}
                  className="grid grid-cols-[minmax(0,1fr)_minmax(0,1fr)_auto] items-start gap-3"
                  data-testid="tier-row"
                >
                  <Field label={`Tier ${index + 1}: books`} error={errors.tiers?.[index]?.minBooks?.message}>
                    {(control) => (
                      <Input
                        {...control}
                        inputMode="numeric"
                        autoComplete="off"
                        {...form.register(`tiers.${index}.minBooks`)}
                      />
                    )}
                  </Field>
                  <Field label="% off" error={errors.tiers?.[index]?.percent?.message}>
                    {(control) => (
                      <Input
                        {...control}
                        inputMode="numeric"
                        autoComplete="off"
                        {...form.register(`tiers.${index}.percent`)}
                      />
                    )}
                  </Field>
                  <Button
                    variant="ghost"
                    size="icon"
                    className="mt-7"
                    aria-label={`Remove tier ${index + 1}`}
                    onClick={() => tiers.remove(index)}
                  >
                    <Trash2 aria-hidden="true" />
                  </Button>
                </li>
              ))}
            </ol>
          )}
          {listError ? <Alert tone="error">{listError}</Alert> : null}
          {serverError ? <Alert tone="error">{serverError}</Alert> : null}
          <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
            {tiers.fields.length < BUNDLE_TIER_LIMITS.maxTiers ? (
              <Button
                variant="outline"
                onClick={() => {
                  const suggestion = SUGGESTED[tiers.fields.length] ?? SUGGESTED[0];
                  tiers.append({
                    minBooks: String(suggestion?.minBooks ?? 2),
                    percent: String(suggestion?.percent ?? 5),
                  });
                }}
              >
                <Plus aria-hidden="true" />
                Add a tier
              </Button>
            ) : null}
            <Button
              type="submit"
              variant="brand"
              disabled={form.formState.isSubmitting}
              aria-busy={form.formState.isSubmitting || undefined}
            >
              Save bundle discounts
            </Button>
          </div>
        </form>
      )}
    </section>
  );
}
