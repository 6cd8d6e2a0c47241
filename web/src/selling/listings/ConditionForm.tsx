import { zodResolver } from '@hookform/resolvers/zod';
import {
  BOOK_FORMAT_LABELS,
  BOOK_FORMATS,
  CONDITION_LABELS,
  CONDITIONS,
  type Condition,
  SELLING_LIMITS,
  SELLING_MESSAGES,
  type SellerListing,
} from '@reshelf/contracts';
import { type ReactNode, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Field } from '../../components/form/Field.tsx';
import { Textarea } from '../../components/ui/input.tsx';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { cn } from '../../lib/utils.ts';
import { useSaveListing } from './sell-state.ts';
import { StepFormFooter } from './WizardFrame.tsx';

export const CONDITION_HINTS: Record<Condition, string> = {
  like_new: 'Looks unread: no creases, marks or wear.',
  very_good: 'Read carefully: light wear to the cover, pages clean.',
  good: 'Read and enjoyed: creased spine, some wear, all pages there and readable.',
  well_read: 'Much loved: heavy wear, perhaps notes or stains, still complete.',
};

const conditionSchema = z.object({
  condition: z.enum(CONDITIONS, SELLING_MESSAGES.conditionMissing),
  exLibrary: z.boolean(),
  // '' is "not saying"; the API keeps null.
  format: z.enum(['', ...BOOK_FORMATS]),
  firstEdition: z.boolean(),
  signed: z.boolean(),
  conditionNotes: z
    .string()
    .trim()
    .max(SELLING_LIMITS.maxConditionNotes, SELLING_MESSAGES.conditionNotesTooLong),
});
type ConditionValues = z.input<typeof conditionSchema>;

/** The copy's condition (one of four), the ex-library flag and notes on any defects. */
export function ConditionForm({
  listing,
  onSaved,
  submitLabel,
  back,
}: {
  listing: SellerListing;
  onSaved: (listing: SellerListing) => void;
  submitLabel: string;
  back?: ReactNode;
}) {
  const save = useSaveListing();
  const [problem, setProblem] = useState<string | null>(null);
  const groupId = useId();
  const form = useForm<ConditionValues, unknown, z.output<typeof conditionSchema>>({
    resolver: zodResolver(conditionSchema),
    defaultValues: {
      condition: listing.condition ?? (undefined as unknown as Condition),
      exLibrary: listing.exLibrary,
      format: listing.format ?? '',
      firstEdition: listing.firstEdition,
      signed: listing.signed,
      conditionNotes: listing.conditionNotes ?? '',
    },
  });
  const { errors, isSubmitting } = form.formState;
  const chosen = form.watch('condition');
  const onSubmit = form.handleSubmit(async (values) => {
    setProblem(null);
    try {
      onSaved(await save.mutateAsync({ listingId: listing.id, ...values, format: values.format || null }));
    } catch (error) {
      setProblem(apiErrorMessage(error));
    }
  });
  const errorId = `${groupId}-error`;
  return (
    <form noValidate onSubmit={onSubmit} aria-label="Condition" className="flex flex-col gap-6">
      <fieldset aria-describedby={errors.condition ? errorId : undefined}>
        <legend className="text-sm font-semibold text-ink">How is your copy?</legend>
        <div className="mt-3 grid gap-3 sm:grid-cols-2" data-testid="condition-options">
          {CONDITIONS.map((condition) => (
            <label
              key={condition}
              className={cn(
                'flex cursor-pointer gap-3 rounded-xl border bg-paper p-4 transition-colors has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand',
                chosen === condition ? 'border-brand bg-brand-soft/50' : 'border-line hover:border-ink/30',
              )}
            >
              <input
                type="radio"
                value={condition}
                {...form.register('condition')}
                className="mt-1 size-4 shrink-0 accent-brand"
              />
              <span>
                <span className="block font-semibold text-ink">{CONDITION_LABELS[condition]}</span>
                <span className="mt-0.5 block text-sm text-ink-muted">{CONDITION_HINTS[condition]}</span>
              </span>
            </label>
          ))}
        </div>
        {errors.condition ? (
          <p id={errorId} className="mt-2 text-sm font-medium text-destructive" data-testid="field-error">
            {errors.condition.message}
          </p>
        ) : null}
      </fieldset>
      <label className="flex cursor-pointer items-start gap-3 rounded-xl border border-line bg-paper p-4">
        <input
          type="checkbox"
          {...form.register('exLibrary')}
          className="mt-1 size-4 shrink-0 accent-brand"
        />
        <span>
          <span className="block font-semibold text-ink">Ex-library</span>
          <span className="mt-0.5 block text-sm text-ink-muted">
            It came from a library: stamps, a plastic jacket or a card pocket.
          </span>
        </span>
      </label>
      <fieldset className="flex flex-col gap-3">
        <legend className="text-sm font-semibold text-ink">The copy itself</legend>
        <label className="flex flex-col gap-1.5 text-sm">
          <span className="font-semibold text-ink">Format</span>
          <select
            {...form.register('format')}
            className="h-10 w-full max-w-xs rounded-md border border-line bg-white px-3 text-sm text-ink shadow-sm"
          >
            <option value="">Not saying</option>
            {BOOK_FORMATS.map((format) => (
              <option key={format} value={format}>
                {BOOK_FORMAT_LABELS[format]}
              </option>
            ))}
          </select>
        </label>
        <label className="flex cursor-pointer items-start gap-3 rounded-xl border border-line bg-paper p-4">
          <input
            type="checkbox"
            {...form.register('firstEdition')}
            className="mt-1 size-4 shrink-0 accent-brand"
          />
          <span>
            <span className="block font-semibold text-ink">First edition</span>
            <span className="mt-0.5 block text-sm text-ink-muted">
              The copyright page says first edition, or shows a full number line ending in 1.
            </span>
          </span>
        </label>
        <label className="flex cursor-pointer items-start gap-3 rounded-xl border border-line bg-paper p-4">
          <input type="checkbox" {...form.register('signed')} className="mt-1 size-4 shrink-0 accent-brand" />
          <span>
            <span className="block font-semibold text-ink">Signed</span>
            <span className="mt-0.5 block text-sm text-ink-muted">
              Signed by the author: say in the notes if it is dedicated to someone.
            </span>
          </span>
        </label>
      </fieldset>
      <Field
        label="Notes on any defects"
        optional
        hint="A torn page, a coffee ring, pencil notes, a missing dust jacket: say so and buyers trust you."
        error={errors.conditionNotes?.message}
      >
        {(control) => <Textarea {...control} {...form.register('conditionNotes')} rows={3} />}
      </Field>
      <StepFormFooter problem={problem} back={back} pending={isSubmitting} submitLabel={submitLabel} />
    </form>
  );
}
