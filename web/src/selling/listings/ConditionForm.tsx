import { zodResolver } from '@hookform/resolvers/zod';
import {
  BOOK_FORMAT_LABELS,
  BOOK_FORMATS,
  BOOKMAN_FOR_CONDITION,
  BOOKMAN_GRADES,
  BOOKMAN_LABELS,
  CONDITION_LABELS,
  CONDITIONS,
  COPY_ATTRIBUTE_LABELS,
  COPY_ATTRIBUTES,
  type Condition,
  type CopyAttribute,
  DUST_JACKET_LABELS,
  DUST_JACKET_STATES,
  isCollectable,
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

/** What each collectors' attribute means, in a seller's words. */
const ATTRIBUTE_HINTS: Record<CopyAttribute, string> = {
  firstEdition: 'The copyright page says first edition, or shows a full number line ending in 1.',
  firstPrinting: 'The first print run of that edition: the number line still ends in 1.',
  signed: 'Signed by the author.',
  inscribed: 'Written in by the author to someone, or with a message.',
  exLibrary: 'It came from a library: stamps, a plastic jacket or a card pocket.',
  bookClub: 'Printed for a book club, not the publisher’s trade edition.',
  printOnDemand: 'Printed to order, usually a recent reprint of an older book.',
};

const conditionSchema = z.object({
  condition: z.enum(CONDITIONS, SELLING_MESSAGES.conditionMissing),
  // '' is "not saying"; the API keeps null.
  format: z.enum(['', ...BOOK_FORMATS]),
  ...(Object.fromEntries(COPY_ATTRIBUTES.map((attribute) => [attribute, z.boolean()])) as Record<
    CopyAttribute,
    z.ZodBoolean
  >),
  // '' is "not saying" (null).
  dustJacket: z.enum(['', ...DUST_JACKET_STATES]),
  // '' is "as the condition" (null: BOOKMAN_FOR_CONDITION).
  bookmanGrade: z.enum(['', ...BOOKMAN_GRADES]),
  conditionNotes: z
    .string()
    .trim()
    .max(SELLING_LIMITS.maxConditionNotes, SELLING_MESSAGES.conditionNotesTooLong),
});
type ConditionValues = z.input<typeof conditionSchema>;

const SELECT_CLASS =
  'h-10 w-full max-w-xs rounded-md border border-line bg-white px-3 text-sm text-ink shadow-sm';

/**
 * The copy's condition (one of four), its format, the collectors' attributes (with the dust
 * jacket's grade, and a Bookman grade for a collectable copy) and notes on any defects.
 */
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
      format: listing.format ?? '',
      ...(Object.fromEntries(COPY_ATTRIBUTES.map((attribute) => [attribute, listing[attribute]])) as Record<
        CopyAttribute,
        boolean
      >),
      dustJacket: listing.dustJacket ?? '',
      bookmanGrade: listing.bookmanGrade ?? '',
      conditionNotes: listing.conditionNotes ?? '',
    },
  });
  const { errors, isSubmitting } = form.formState;
  const chosen = form.watch('condition');
  const collectable = isCollectable({
    firstEdition: form.watch('firstEdition'),
    firstPrinting: form.watch('firstPrinting'),
    signed: form.watch('signed'),
    inscribed: form.watch('inscribed'),
  });
  const onSubmit = form.handleSubmit(async (values) => {
    setProblem(null);
    try {
      onSaved(
        await save.mutateAsync({
          listingId: listing.id,
          ...values,
          format: values.format || null,
          dustJacket: values.dustJacket || null,
          // A grade is kept only for a collectable copy; otherwise it is the condition's, unsaid.
          bookmanGrade: (isCollectable(values) && values.bookmanGrade) || null,
        }),
      );
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
      <fieldset className="flex flex-col gap-3">
        <legend className="text-sm font-semibold text-ink">The copy itself</legend>
        <label className="flex flex-col gap-1.5 text-sm">
          <span className="font-semibold text-ink">Format</span>
          <select {...form.register('format')} className={SELECT_CLASS}>
            <option value="">Not saying</option>
            {BOOK_FORMATS.map((format) => (
              <option key={format} value={format}>
                {BOOK_FORMAT_LABELS[format]}
              </option>
            ))}
          </select>
        </label>
      </fieldset>
      <fieldset className="flex flex-col gap-3" data-testid="collector-attributes">
        <legend className="text-sm font-semibold text-ink">Collector’s details</legend>
        <p className="text-sm text-ink-muted">Tick all that are true of your copy.</p>
        <div className="grid gap-3 sm:grid-cols-2">
          {COPY_ATTRIBUTES.map((attribute) => (
            <label
              key={attribute}
              className="flex cursor-pointer items-start gap-3 rounded-xl border border-line bg-paper p-4"
            >
              <input
                type="checkbox"
                {...form.register(attribute)}
                className="mt-1 size-4 shrink-0 accent-brand"
              />
              <span>
                <span className="block font-semibold text-ink">{COPY_ATTRIBUTE_LABELS[attribute]}</span>
                <span className="mt-0.5 block text-sm text-ink-muted">{ATTRIBUTE_HINTS[attribute]}</span>
              </span>
            </label>
          ))}
        </div>
        <div className="flex flex-col gap-1.5 text-sm">
          <label htmlFor={`${groupId}-jacket`} className="font-semibold text-ink">
            Dust jacket
          </label>
          <select
            id={`${groupId}-jacket`}
            aria-describedby={`${groupId}-jacket-hint`}
            {...form.register('dustJacket')}
            className={SELECT_CLASS}
          >
            <option value="">Not saying</option>
            {DUST_JACKET_STATES.map((state) => (
              <option key={state} value={state}>
                {DUST_JACKET_LABELS[state]}
              </option>
            ))}
          </select>
          <span id={`${groupId}-jacket-hint`} className="text-ink-muted">
            Graded on its own, on the Bookman scale collectors use.
          </span>
        </div>
        {collectable ? (
          <div className="flex flex-col gap-1.5 text-sm">
            <label htmlFor={`${groupId}-bookman`} className="font-semibold text-ink">
              Bookman grade
            </label>
            <select
              id={`${groupId}-bookman`}
              aria-describedby={`${groupId}-bookman-hint`}
              {...form.register('bookmanGrade')}
              className={SELECT_CLASS}
            >
              <option value="">
                {chosen
                  ? `As its condition: ${BOOKMAN_LABELS[BOOKMAN_FOR_CONDITION[chosen]]}`
                  : 'As its condition'}
              </option>
              {BOOKMAN_GRADES.map((grade) => (
                <option key={grade} value={grade}>
                  {BOOKMAN_LABELS[grade]}
                </option>
              ))}
            </select>
            <span id={`${groupId}-bookman-hint`} className="text-ink-muted">
              A first edition or printing, signed or inscribed copy is graded on this scale too.
            </span>
          </div>
        ) : null}
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
