import { zodResolver } from '@hookform/resolvers/zod';
import { formatIsbn, SELLING_LIMITS, SELLING_MESSAGES, type SellerListing } from '@reshelf/contracts';
import { type ReactNode, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router-dom';
import { z } from 'zod';
import { BookCover } from '../../components/BookCover.tsx';
import { Field } from '../../components/form/Field.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { fieldClasses, Input, Textarea } from '../../components/ui/input.tsx';
import { apiErrorMessage, apiFieldErrors } from '../../lib/api-errors.ts';
import { trpc } from '../../lib/trpc.ts';
import { cn } from '../../lib/utils.ts';
import { useSaveListing } from './sell-state.ts';
import { StepFormFooter } from './WizardFrame.tsx';

const thisYear = new Date().getFullYear();

const detailsSchema = z.object({
  title: z
    .string()
    .trim()
    .min(1, SELLING_MESSAGES.titleMissing)
    .max(SELLING_LIMITS.maxTitle, SELLING_MESSAGES.titleTooLong),
  subtitle: z.string().trim().max(SELLING_LIMITS.maxSubtitle, SELLING_MESSAGES.subtitleTooLong),
  authors: z
    .string()
    .trim()
    .min(1, SELLING_MESSAGES.authorsMissing)
    .refine(
      (value) => value.split(',').every((name) => name.trim().length <= SELLING_LIMITS.maxAuthorLength),
      SELLING_MESSAGES.authorTooLong,
    ),
  publisher: z.string().trim().max(SELLING_LIMITS.maxPublisher, SELLING_MESSAGES.publisherTooLong),
  publishedYear: z
    .string()
    .trim()
    .refine(
      (value) =>
        value === '' || (/^\d{4}$/.test(value) && Number(value) >= 1450 && Number(value) <= thisYear + 1),
      SELLING_MESSAGES.yearOutOfRange,
    ),
  categorySlug: z.string(),
  description: z.string().trim().max(SELLING_LIMITS.maxDescription, SELLING_MESSAGES.descriptionTooLong),
});
type DetailsValues = z.infer<typeof detailsSchema>;

const descriptionSchema = detailsSchema.pick({ description: true });

/**
 * The book's details. A book our catalogue knows is shown as it is (the seller adds only their
 * own words); otherwise, or for a book this seller typed, the details are a form.
 */
export function DetailsForm({
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
  const typed = !listing.book || listing.book.editable;
  return typed ? (
    <TypedDetails listing={listing} onSaved={onSaved} submitLabel={submitLabel} back={back} />
  ) : (
    <CatalogueDetails listing={listing} onSaved={onSaved} submitLabel={submitLabel} back={back} />
  );
}

function CatalogueDetails({
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
  const book = listing.book!;
  const save = useSaveListing();
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm<z.infer<typeof descriptionSchema>>({
    resolver: zodResolver(descriptionSchema),
    defaultValues: { description: listing.description ?? '' },
  });
  const onSubmit = form.handleSubmit(async (values) => {
    setProblem(null);
    try {
      onSaved(await save.mutateAsync({ listingId: listing.id, description: values.description }));
    } catch (error) {
      setProblem(apiErrorMessage(error));
    }
  });
  return (
    <form noValidate onSubmit={onSubmit} aria-label="Book details">
      <div
        className="flex gap-4 rounded-xl border border-line bg-paper p-4 shadow-card sm:gap-6 sm:p-5"
        data-testid="found-book"
      >
        <div className="w-24 shrink-0 sm:w-32">
          <BookCover
            title={book.title}
            authors={book.authors}
            isbn13={book.isbn13}
            coverUrl={book.coverUrl}
          />
        </div>
        <div className="min-w-0">
          <p className="text-sm font-semibold tracking-widest text-moss uppercase">Found in our catalogue</p>
          <h2 className="mt-1 font-serif text-2xl font-semibold break-words">{book.title}</h2>
          {book.subtitle ? <p className="text-ink-soft">{book.subtitle}</p> : null}
          <p className="mt-1 text-ink-muted">by {book.authors.join(', ')}</p>
          <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            {book.isbn13 ? (
              <>
                <dt className="text-ink-muted">ISBN</dt>
                <dd>{formatIsbn(book.isbn13)}</dd>
              </>
            ) : null}
            {book.publisher || book.publishedYear ? (
              <>
                <dt className="text-ink-muted">Published</dt>
                <dd>{[book.publisher, book.publishedYear].filter(Boolean).join(', ')}</dd>
              </>
            ) : null}
            {book.category ? (
              <>
                <dt className="text-ink-muted">Category</dt>
                <dd>{book.category.name}</dd>
              </>
            ) : null}
          </dl>
        </div>
      </div>
      {listing.status === 'draft' ? (
        <p className="mt-3 text-sm text-ink-muted">
          Not your book?{' '}
          <Link to="/sell/new" className="font-semibold text-brand underline-offset-4 hover:underline">
            Start again with another ISBN
          </Link>
        </p>
      ) : null}
      <Field
        label="About your copy"
        optional
        hint="Anything a buyer would like to know: the edition, a dust jacket, an inscription."
        error={form.formState.errors.description?.message}
        className="mt-6"
      >
        {(control) => <Textarea {...control} {...form.register('description')} rows={3} />}
      </Field>
      <StepFormFooter
        problem={problem}
        back={back}
        pending={form.formState.isSubmitting}
        submitLabel={submitLabel}
        problemClassName="mt-4"
      />
    </form>
  );
}

function TypedDetails({
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
  const categories = trpc.catalogue.taxonomy.public.categories.useQuery();
  const [problem, setProblem] = useState<string | null>(null);
  const book = listing.book;
  const form = useForm<DetailsValues>({
    resolver: zodResolver(detailsSchema),
    defaultValues: {
      title: book?.title ?? '',
      subtitle: book?.subtitle ?? '',
      authors: book?.authors.join(', ') ?? '',
      publisher: book?.publisher ?? '',
      publishedYear: book?.publishedYear ? String(book.publishedYear) : '',
      categorySlug: book?.category?.slug ?? '',
      description: listing.description ?? '',
    },
    mode: 'onTouched',
  });
  const { errors, isSubmitting } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    setProblem(null);
    try {
      const saved = await save.mutateAsync({
        listingId: listing.id,
        book: {
          title: values.title,
          subtitle: values.subtitle,
          authors: values.authors.split(',').map((name) => name.trim()),
          publisher: values.publisher,
          publishedYear: values.publishedYear ? Number(values.publishedYear) : null,
          categorySlug: values.categorySlug || null,
        },
        description: values.description,
      });
      onSaved(saved);
    } catch (error) {
      const fields = apiFieldErrors(error);
      const titleError = fields['book.title'] ?? fields.book;
      if (titleError) form.setError('title', { message: titleError });
      else setProblem(apiErrorMessage(error));
    }
  });

  return (
    <form noValidate onSubmit={onSubmit} aria-label="Book details" className="flex flex-col gap-5">
      {!book ? (
        <Alert tone="info" live={false}>
          {listing.isbn13
            ? `We don’t know the book with ISBN ${formatIsbn(listing.isbn13)} yet. Tell us what it is: it takes a moment.`
            : 'Tell us about the book: its title and who wrote it.'}
        </Alert>
      ) : null}
      <Field label="Title" error={errors.title?.message}>
        {(control) => (
          <Input {...control} {...form.register('title')} autoComplete="off" data-testid="title-input" />
        )}
      </Field>
      <Field label="Subtitle" optional error={errors.subtitle?.message}>
        {(control) => <Input {...control} {...form.register('subtitle')} autoComplete="off" />}
      </Field>
      <Field
        label="Author"
        hint="Several authors? Separate them with commas."
        error={errors.authors?.message}
      >
        {(control) => <Input {...control} {...form.register('authors')} autoComplete="off" />}
      </Field>
      <div className="grid gap-5 sm:grid-cols-[2fr_1fr]">
        <Field label="Publisher" optional error={errors.publisher?.message}>
          {(control) => <Input {...control} {...form.register('publisher')} autoComplete="off" />}
        </Field>
        <Field label="Year published" optional error={errors.publishedYear?.message}>
          {(control) => (
            <Input
              {...control}
              {...form.register('publishedYear')}
              inputMode="numeric"
              maxLength={4}
              placeholder="1998"
            />
          )}
        </Field>
      </div>
      <Field
        label="Category"
        optional
        hint="Helps buyers browsing a shelf find it."
        error={errors.categorySlug?.message}
      >
        {(control) => (
          <select {...control} {...form.register('categorySlug')} className={cn(fieldClasses, 'h-11 pr-8')}>
            <option value="">Choose a category</option>
            {categories.data?.map((category) => (
              <option key={category.slug} value={category.slug}>
                {category.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field
        label="About your copy"
        optional
        hint="Anything a buyer would like to know: the edition, a dust jacket, an inscription."
        error={errors.description?.message}
      >
        {(control) => <Textarea {...control} {...form.register('description')} rows={3} />}
      </Field>
      <StepFormFooter problem={problem} back={back} pending={isSubmitting} submitLabel={submitLabel} />
    </form>
  );
}
