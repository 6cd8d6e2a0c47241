import {
  CONDITION_LABELS,
  countOf,
  EDIT_SUBPAGES,
  type EditSubpage,
  formatIsbn,
  formatPence,
  plural,
  SELLING_STEP_LABELS,
  SELLING_WARNINGS,
  type SellerListing,
  type SellingStep,
} from '@reshelf/contracts';
import {
  ArrowLeft,
  type BookOpen,
  Camera,
  Check,
  ChevronRight,
  Copy,
  ExternalLink,
  Lock,
  PackageOpen,
  PencilLine,
  PoundSterling,
  ScanBarcode,
  Undo2,
} from 'lucide-react';
import { type ReactNode, useRef, useState } from 'react';
import { Link, Navigate, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { leadThumb } from '../../catalogue/index.ts';
import { DemandNote } from '../../community/index.ts';
import { BookCover } from '../../components/BookCover.tsx';
import { Breadcrumbs } from '../../components/Breadcrumbs.tsx';
import { NotFoundContent } from '../../components/not-found/NotFoundContent.tsx';
import { PageSkeleton } from '../../components/placeholders.tsx';
import { QueryError } from '../../components/QueryError.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Input } from '../../components/ui/input.tsx';
import { notify } from '../../components/ui/notify.ts';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { isNotFound } from '../../lib/errors.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { isRouteId } from '../../lib/route-ids.ts';
import { trpc } from '../../lib/trpc.ts';
import { ConditionForm } from './ConditionForm.tsx';
import { DetailsForm } from './DetailsForm.tsx';
import { IsbnForm } from './IsbnForm.tsx';
import { PhotosForm } from './PhotosForm.tsx';
import { PriceForm } from './PriceForm.tsx';
import { ReviewPanel } from './ReviewPanel.tsx';
import { StatusBadge } from './StatusBadge.tsx';
import { editPath, isStep, nextStep, previousStep, resumeStep, wizardPath } from './sell-state.ts';
import { StepActions, WizardFrame } from './WizardFrame.tsx';

const linkClass = 'font-semibold text-brand underline-offset-4 hover:underline';

// /sell -------------------------------------------------------------------------------------

/** /sell: how selling works, the ISBN to start with, and drafts to carry on. */
export function SellStartPage() {
  usePageMeta(
    'Sell a book',
    'List a book on Reshelf in under a minute: type its ISBN, add a photo and a price.',
  );
  return (
    <div>
      <section className="border-b border-line bg-paper-deep/60">
        <div className="mx-auto grid w-full max-w-5xl gap-8 px-4 py-10 sm:px-6 md:grid-cols-[1fr_minmax(0,26rem)] md:py-14 lg:px-8">
          <div>
            <p className="text-sm font-semibold tracking-widest text-brand uppercase">Sell on Reshelf</p>
            <h1 className="mt-2 text-3xl font-semibold sm:text-4xl">List a book in under a minute</h1>
            <p className="mt-3 text-lg text-ink-muted">
              Type the ISBN and we fill in the rest. Add a photo, pick a price, and it’s on sale.
            </p>
            <ol className="mt-6 flex flex-col gap-3 text-ink-soft">
              {[
                { icon: ScanBarcode, text: 'The ISBN finds your book’s title, author and edition.' },
                { icon: Camera, text: 'A photo of your copy shows buyers its condition.' },
                { icon: PoundSterling, text: 'We suggest a price from similar copies; you get all of it.' },
                {
                  icon: PackageOpen,
                  text: 'The buyer pays postage; your money is released when the book arrives.',
                },
              ].map(({ icon: Icon, text }) => (
                <li key={text} className="flex gap-3">
                  <Icon aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-brand" />
                  {text}
                </li>
              ))}
            </ol>
          </div>
          <div className="rounded-2xl border border-line bg-paper p-5 shadow-card sm:p-6">
            <h2 className="mb-4 text-xl font-semibold">Start with the ISBN</h2>
            <IsbnForm />
          </div>
        </div>
      </section>
      <DraftsToResume />
    </div>
  );
}

function DraftsToResume() {
  const drafts = trpc.selling.listings.mine.useQuery({ status: 'draft', pageSize: 5 });
  if (drafts.isPending || drafts.isError || drafts.data.items.length === 0) return null;
  return (
    <section aria-labelledby="drafts-title" className="mx-auto w-full max-w-5xl px-4 py-10 sm:px-6 lg:px-8">
      <h2 id="drafts-title" className="text-2xl font-semibold">
        Carry on where you left off
      </h2>
      <ul className="mt-4 flex flex-col gap-3" data-testid="drafts">
        {drafts.data.items.map((draft) => (
          <li key={draft.id}>
            <Link
              to={wizardPath(draft.id, draft.missing[0] ?? 'review')}
              className="flex items-center gap-4 rounded-xl border border-line bg-paper p-3 shadow-card hover:border-ink/25"
            >
              <div className="w-12 shrink-0">
                <BookCover
                  size="thumb"
                  title={draft.title ?? 'Untitled'}
                  authors={draft.authors}
                  isbn13={draft.isbn13}
                  coverUrl={leadThumb(draft.photoUrl, draft.coverUrl)}
                />
              </div>
              <div className="min-w-0 flex-1">
                <p className="truncate font-semibold">
                  {draft.title ?? (draft.isbn13 ? `ISBN ${formatIsbn(draft.isbn13)}` : 'A new listing')}
                </p>
                <p className="text-sm text-ink-muted">
                  {draft.missing.length
                    ? `Still to do: ${draft.missing.map((step) => SELLING_STEP_LABELS[step].toLowerCase()).join(', ')}`
                    : 'Ready to publish'}
                </p>
              </div>
              <ChevronRight aria-hidden="true" className="size-5 shrink-0 text-ink-muted" />
            </Link>
          </li>
        ))}
      </ul>
      <p className="mt-3 text-sm">
        <Link to="/account/listings?status=draft" className={linkClass}>
          All your drafts
        </Link>
      </p>
    </section>
  );
}

// /sell/new, /sell/wizard -------------------------------------------------------------------

const STEP_TEXT: Record<SellingStep, { title: string; description?: string }> = {
  isbn: { title: 'Which book are you selling?', description: 'Start with its ISBN: we’ll fill in the rest.' },
  details: { title: 'Is this your book?', description: 'Check the details buyers will search for.' },
  condition: {
    title: 'What condition is it in?',
    description: 'Be honest: buyers rate sellers who describe books well.',
  },
  photos: {
    title: 'Add photos of your copy',
    description: 'At least one: the front cover, and any wear worth showing.',
  },
  price: { title: 'Set your price' },
  parcel: { title: 'How big is the parcel?' },
  review: { title: 'Check and publish', description: 'This is what buyers will see.' },
};

/** The wizard: the ISBN first, then each step of the draft in the address (?draft=…&step=…). */
export function SellWizardPage() {
  const [params] = useSearchParams();
  const draftId = params.get('draft');
  const step = params.get('step');
  usePageMeta(draftId && isStep(step) ? `Sell: ${SELLING_STEP_LABELS[step]}` : 'Sell a book');
  if (!draftId) {
    return (
      <WizardFrame step="isbn" title={STEP_TEXT.isbn.title} description={STEP_TEXT.isbn.description}>
        <IsbnForm />
      </WizardFrame>
    );
  }
  return <DraftWizard listingId={draftId} requested={isStep(step) && step !== 'isbn' ? step : null} />;
}

/**
 * The seller's own listing named by the address. `missing` when the id is malformed (never
 * sent to the API), unknown, or another seller's: the page then shows the not-found page, as
 * the catch-all route does.
 */
function useSellerListing(listingId: string) {
  const valid = isRouteId(listingId);
  const listing = trpc.selling.listings.get.useQuery(
    { listingId },
    { enabled: valid, retry: (count, error) => !isNotFound(error) && count < 1 },
  );
  return { listing, missing: !valid || (listing.isError && isNotFound(listing.error)) };
}

/** Loading the listing failed for another reason (connection, server): say so, try again. */
function ListingFailed({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-12 sm:px-6">
      <QueryError what="your listing" onRetry={onRetry} message={apiErrorMessage(error)} />
    </div>
  );
}

function WizardSkeleton() {
  return (
    <div
      role="status"
      aria-busy="true"
      aria-label="Loading your listing"
      className="mx-auto w-full max-w-3xl px-4 py-6 sm:px-6 sm:py-10"
    >
      <Skeleton className="h-6 w-full" />
      <Skeleton className="mt-8 h-9 w-2/3" />
      <Skeleton className="mt-3 h-4 w-1/2" />
      <Skeleton className="mt-8 h-40 w-full rounded-xl" />
      <Skeleton className="mt-6 h-12 w-40 rounded-lg" />
    </div>
  );
}

function DraftWizard({ listingId, requested }: { listingId: string; requested: SellingStep | null }) {
  const navigate = useNavigate();
  const { listing, missing } = useSellerListing(listingId);
  // Opened on a listing already published: its edit page. Published from here: stay on the
  // review while the confirmation page loads.
  const openedAsDraft = useRef<boolean | null>(null);
  if (listing.data && openedAsDraft.current === null) openedAsDraft.current = listing.data.status === 'draft';
  if (missing) return <NotFoundContent />;
  if (listing.isPending) return <WizardSkeleton />;
  if (listing.isError) return <ListingFailed error={listing.error} onRetry={() => listing.refetch()} />;
  const data = listing.data;
  if (data.status !== 'draft' && !openedAsDraft.current) return <Navigate to={editPath(data.id)} replace />;
  const step = data.status === 'draft' ? (requested ?? resumeStep(data)) : 'review';
  const go = (target: SellingStep) => navigate(wizardPath(data.id, target));
  const advance = () => go(nextStep(step));
  const before = previousStep(step);
  const back =
    before && before !== 'isbn' ? (
      <Button asChild variant="ghost" size="lg">
        <Link to={wizardPath(data.id, before)}>
          <ArrowLeft aria-hidden="true" />
          Back
        </Link>
      </Button>
    ) : (
      <Button asChild variant="ghost" size="lg">
        <Link to="/sell/new">
          <ArrowLeft aria-hidden="true" />
          Another ISBN
        </Link>
      </Button>
    );
  const done = (['details', 'condition', 'photos', 'price', 'parcel'] as SellingStep[]).filter(
    (name) => !data.missing.includes(name),
  );
  const text = STEP_TEXT[step];
  const title = step === 'details' && !data.book ? 'Tell us about the book' : text.title;
  return (
    <WizardFrame
      step={step}
      listingId={data.id}
      done={[...done, ...(data.missing.length ? [] : ['review' as const])]}
      title={title}
      description={text.description}
    >
      {step === 'details' ? (
        <DetailsForm listing={data} onSaved={advance} submitLabel="Save and continue" back={back} />
      ) : null}
      {step === 'condition' ? (
        <ConditionForm listing={data} onSaved={advance} submitLabel="Save and continue" back={back} />
      ) : null}
      {step === 'photos' ? (
        <PhotosForm listing={data} onDone={advance} submitLabel="Continue" back={back} />
      ) : null}
      {step === 'price' ? <DemandNote bookId={data.book?.id ?? null} isbn={data.isbn13} /> : null}
      {step === 'price' ? (
        <PriceForm
          listing={data}
          fields={['price']}
          onSaved={advance}
          submitLabel="Save and continue"
          back={back}
        />
      ) : null}
      {step === 'parcel' ? (
        <PriceForm
          listing={data}
          fields={['parcel']}
          onSaved={advance}
          submitLabel="Save and continue"
          back={back}
        />
      ) : null}
      {step === 'review' ? <PublishStep listing={data} back={back} /> : null}
      <p className="mt-6 text-sm text-ink-muted">
        Your draft is saved at every step.{' '}
        <Link to="/account/listings?status=draft" className={linkClass}>
          Finish it later
        </Link>
      </p>
    </WizardFrame>
  );
}

function PublishStep({ listing, back }: { listing: SellerListing; back: ReactNode }) {
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const publish = trpc.selling.listings.publish.useMutation({
    onSuccess: (published) => {
      utils.selling.listings.get.setData({ listingId: published.id }, published);
      navigate(`/sell/confirm?listing=${encodeURIComponent(published.id)}`);
      void utils.selling.listings.mine.invalidate();
      void utils.catalogue.listings.invalidate();
      void utils.catalogue.discovery.public.invalidate();
    },
  });
  return (
    <div>
      <ReviewPanel listing={listing} editHref={(step) => wizardPath(listing.id, step)} />
      <ListingWarningsPanel listing={listing} />
      {publish.error ? (
        <Alert tone="error" className="mt-4" data-testid="form-error">
          {apiErrorMessage(publish.error)}
        </Alert>
      ) : null}
      <StepActions back={back}>
        <Button
          variant="cta"
          size="lg"
          disabled={publish.isPending || listing.status !== 'draft'}
          aria-busy={publish.isPending || undefined}
          onClick={() => publish.mutate({ listingId: listing.id })}
          data-testid="publish"
        >
          {publish.isPending ? 'Publishing…' : listing.status !== 'draft' ? 'Published' : 'Publish listing'}
        </Button>
      </StepActions>
    </div>
  );
}

/**
 * What the server warns of before publishing: a price far above the suggestion, and
 * the same book already on sale in the same condition at the same price. Publishing stays open.
 */
function ListingWarningsPanel({ listing }: { listing: SellerListing }) {
  const warnings = trpc.selling.listings.warnings.useQuery(
    { listingId: listing.id },
    { enabled: listing.status === 'draft', staleTime: 0 },
  );
  const data = warnings.data;
  if (!data || (!data.price && data.duplicates.length === 0)) return null;
  return (
    <div className="mt-4 flex flex-col gap-3" data-testid="listing-warnings">
      {data.price ? (
        <Alert tone="warning" live={false} data-testid="warning-price">
          {SELLING_WARNINGS.priceFarAbove(data.price.priceMinor, data.price.suggestedMinor)}{' '}
          <Link to={wizardPath(listing.id, 'price')} className={linkClass}>
            Change the price
          </Link>
        </Alert>
      ) : null}
      {data.duplicates.length ? (
        <Alert tone="warning" live={false} data-testid="warning-duplicate">
          {SELLING_WARNINGS.duplicate(data.duplicates.length)}{' '}
          {data.duplicates.map((copy, index) => (
            <span key={copy.id}>
              {index > 0 ? ', ' : ''}
              <Link to={copy.slug ? `/listing/${copy.slug}` : editPath(copy.id)} className={linkClass}>
                {plural(data.duplicates.length, 'See it', `Copy ${index + 1}`)}
              </Link>
            </span>
          ))}
        </Alert>
      ) : null}
    </div>
  );
}

// /sell/confirm -----------------------------------------------------------------------------

/** /sell/confirm?listing=…: it is on sale; a link to share (and copy), and "List another". */
export function SellConfirmPage() {
  usePageMeta('Your book is on sale');
  const [params] = useSearchParams();
  const id = params.get('listing') ?? '';
  const { listing, missing } = useSellerListing(id);
  const [copied, setCopied] = useState(false);
  if (!id) return <Navigate to="/account/listings" replace />;
  if (missing) return <NotFoundContent />;
  if (listing.isPending) return <PageSkeleton label="Loading your listing" />;
  if (listing.isError) return <ListingFailed error={listing.error} onRetry={() => listing.refetch()} />;
  const data = listing.data;
  if (data.status === 'draft') return <Navigate to={wizardPath(data.id, resumeStep(data))} replace />;
  const url = `${window.location.origin}/listing/${data.slug}`;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
      notify.success('Link copied');
    } catch {
      const field = document.getElementById('share-link') as HTMLInputElement | null;
      field?.select();
      notify.info('Press Ctrl+C (or ⌘C) to copy the selected link');
    }
  };
  return (
    <div className="mx-auto w-full max-w-2xl px-4 py-10 sm:px-6 md:py-14" data-testid="sell-confirm">
      <div className="flex flex-col items-center text-center">
        <span className="grid size-14 place-items-center rounded-full bg-moss text-paper">
          <Check aria-hidden="true" className="size-7" />
        </span>
        <h1 className="mt-4 text-3xl font-semibold sm:text-4xl">Your book is on sale</h1>
        <p className="mt-2 text-lg text-ink-muted">
          {data.book?.title} is listed at {data.priceMinor !== null ? formatPence(data.priceMinor) : ''}.
          Buyers can find it by searching now.
        </p>
      </div>
      <div className="mt-8 rounded-2xl border border-line bg-paper p-5 shadow-card sm:p-6">
        <label htmlFor="share-link" className="text-sm font-semibold text-ink">
          Share your listing
        </label>
        <div className="mt-2 flex flex-col gap-2 sm:flex-row">
          <Input
            id="share-link"
            value={url}
            readOnly
            onFocus={(event) => event.currentTarget.select()}
            data-testid="share-link"
          />
          <Button variant="outline" size="lg" onClick={() => void copy()} data-testid="copy-link">
            {copied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
            {copied ? 'Copied' : 'Copy link'}
          </Button>
        </div>
      </div>
      <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:justify-center">
        <Button asChild variant="brand" size="lg">
          <Link to="/sell/new">List another book</Link>
        </Button>
        <Button asChild variant="outline" size="lg">
          <Link to={`/listing/${data.slug}`}>
            <ExternalLink aria-hidden="true" />
            View your listing
          </Link>
        </Button>
      </div>
      <p className="mt-6 text-center text-sm">
        <Link to="/account/listings" className={linkClass}>
          Manage your listings
        </Link>
      </p>
    </div>
  );
}

// /sell/{id} and /sell/{id}/{subpage} -------------------------------------------------------

const SUBPAGE_TO_STEP: Record<EditSubpage, SellingStep> = {
  details: 'details',
  photos: 'photos',
  price: 'price',
  withdraw: 'review',
};

const SUBPAGES: {
  subpage: EditSubpage;
  title: string;
  icon: typeof BookOpen;
  text: (l: SellerListing) => string;
}[] = [
  {
    subpage: 'details',
    title: 'Details and condition',
    icon: PencilLine,
    text: (l) =>
      l.condition ? `${CONDITION_LABELS[l.condition]}${l.exLibrary ? ', ex-library' : ''}` : 'Not set',
  },
  {
    subpage: 'photos',
    title: 'Photos',
    icon: Camera,
    text: (l) => countOf(l.photos.length, 'photo', 'photos'),
  },
  {
    subpage: 'price',
    title: 'Price and postage',
    icon: PoundSterling,
    text: (l) => (l.priceMinor !== null ? formatPence(l.priceMinor) : 'Not set'),
  },
];

/** /sell/{id}: a published listing's page for its seller: what it says, and what can be changed. */
export function SellListingPage() {
  const { id = '' } = useParams();
  const { listing, missing } = useSellerListing(id);
  usePageMeta(
    missing
      ? 'Page not found'
      : listing.data?.book
        ? `Your listing: ${listing.data.book.title}`
        : 'Your listing',
  );
  if (missing) return <NotFoundContent />;
  if (listing.isPending) return <WizardSkeleton />;
  if (listing.isError) return <ListingFailed error={listing.error} onRetry={() => listing.refetch()} />;
  const data = listing.data;
  if (data.status === 'draft') return <Navigate to={wizardPath(data.id, resumeStep(data))} replace />;
  return (
    <EditFrame listing={data}>
      <ul className="grid gap-3 sm:grid-cols-2">
        {SUBPAGES.map(({ subpage, title, icon: Icon, text }) => (
          <li key={subpage}>
            <EditLink
              listing={data}
              to={editPath(data.id, subpage)}
              icon={Icon}
              title={title}
              text={text(data)}
            />
          </li>
        ))}
        <li>
          {data.status === 'withdrawn' ? (
            <EditLink
              listing={data}
              to={editPath(data.id, 'withdraw')}
              icon={Undo2}
              title="Put back on sale"
              text="Relist it as it is"
            />
          ) : (
            <EditLink
              listing={data}
              to={editPath(data.id, 'withdraw')}
              icon={Undo2}
              title="Withdraw"
              text="Take it off sale"
            />
          )}
        </li>
      </ul>
    </EditFrame>
  );
}

function EditLink({
  listing,
  to,
  icon: Icon,
  title,
  text,
}: {
  listing: SellerListing;
  to: string;
  icon: typeof BookOpen;
  title: string;
  text: string;
}) {
  const inner = (
    <>
      <span className="grid size-10 shrink-0 place-items-center rounded-full bg-brand-soft text-brand">
        <Icon aria-hidden="true" className="size-5" />
      </span>
      <span className="min-w-0 flex-1">
        <span className="block font-semibold text-ink">{title}</span>
        <span className="block truncate text-sm text-ink-muted">{text}</span>
      </span>
      {listing.lock ? (
        <Lock aria-hidden="true" className="size-4 text-ink-muted" />
      ) : (
        <ChevronRight aria-hidden="true" className="size-5 text-ink-muted" />
      )}
    </>
  );
  const className = 'flex h-full items-center gap-3 rounded-xl border border-line bg-paper p-4 shadow-card';
  if (listing.lock) return <div className={`${className} opacity-70`}>{inner}</div>;
  return (
    <Link to={to} className={`${className} hover:border-ink/25`}>
      {inner}
    </Link>
  );
}

function EditFrame({
  listing,
  title,
  children,
}: {
  listing: SellerListing;
  title?: string;
  children: ReactNode;
}) {
  const book = listing.book;
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-8 sm:px-6 md:py-12" data-testid="sell-edit">
      <Breadcrumbs
        className="mb-4"
        crumbs={[
          { to: '/account/listings', label: 'Your listings' },
          ...(title ? [{ to: editPath(listing.id), label: book?.title ?? 'This listing' }] : []),
        ]}
      />
      <div className="flex gap-4">
        <div className="w-16 shrink-0 sm:w-20">
          {book ? (
            <BookCover
              size="thumb"
              title={book.title}
              authors={book.authors}
              isbn13={book.isbn13}
              coverUrl={leadThumb(listing.photos[0], book.coverUrl)}
            />
          ) : null}
        </div>
        <div className="min-w-0">
          <StatusBadge status={listing.status} lock={listing.lock?.reason ?? null} />
          <h1 className="mt-1 text-2xl font-semibold break-words sm:text-3xl">{title ?? book?.title}</h1>
          {title ? (
            <p className="text-ink-muted">{book?.title}</p>
          ) : book ? (
            <p className="text-ink-muted">by {book.authors.join(', ')}</p>
          ) : null}
          {listing.slug && listing.status !== 'removed' ? (
            <Link
              to={`/listing/${listing.slug}`}
              className={`mt-1 inline-flex items-center gap-1 text-sm ${linkClass}`}
            >
              <ExternalLink aria-hidden="true" className="size-3.5" />
              View on Reshelf
            </Link>
          ) : null}
          {listing.wishlistCount ? (
            <p className="mt-1 text-sm text-ink-muted">
              On {countOf(listing.wishlistCount, 'wishlist', 'wishlists')}: a lower price tells them at once.
            </p>
          ) : null}
        </div>
      </div>
      {listing.lock ? (
        <Alert
          tone="info"
          title="This listing can’t be changed now"
          className="mt-6"
          data-testid="lock-message"
        >
          {listing.lock.message}
        </Alert>
      ) : null}
      <div className="mt-6">{children}</div>
    </div>
  );
}

const SUBPAGE_TITLES: Record<EditSubpage, string> = {
  details: 'Details and condition',
  photos: 'Photos',
  price: 'Price and postage',
  withdraw: 'Withdraw',
};

/** /sell/{id}/{subpage}: change the details, the photos or the price, or withdraw (relist). */
export function SellEditPage() {
  const { id = '', subpage = '' } = useParams();
  const navigate = useNavigate();
  const { listing, missing } = useSellerListing(id);
  const known = (EDIT_SUBPAGES as readonly string[]).includes(subpage);
  usePageMeta(
    known && !missing ? `Edit listing: ${SUBPAGE_TITLES[subpage as EditSubpage]}` : 'Page not found',
  );
  if (!known || missing) return <NotFoundContent />;
  const page = subpage as EditSubpage;
  if (listing.isPending) return <WizardSkeleton />;
  if (listing.isError) return <ListingFailed error={listing.error} onRetry={() => listing.refetch()} />;
  const data = listing.data;
  if (data.status === 'draft') return <Navigate to={wizardPath(data.id, SUBPAGE_TO_STEP[page])} replace />;
  const title =
    page === 'withdraw' && data.status === 'withdrawn' ? 'Put back on sale' : SUBPAGE_TITLES[page];
  const saved = () => {
    notify.success('Saved: buyers see the change now');
    navigate(editPath(data.id));
  };
  const back = (
    <Button asChild variant="ghost" size="lg">
      <Link to={editPath(data.id)}>
        <ArrowLeft aria-hidden="true" />
        Back
      </Link>
    </Button>
  );
  if (data.lock)
    return (
      <EditFrame listing={data} title={title}>
        {back}
      </EditFrame>
    );
  return (
    <EditFrame listing={data} title={title}>
      {page === 'details' ? (
        <div className="flex flex-col gap-10">
          <DetailsForm listing={data} onSaved={saved} submitLabel="Save details" />
          <section aria-labelledby="condition-title">
            <h2 id="condition-title" className="mb-4 text-xl font-semibold">
              Condition
            </h2>
            <ConditionForm listing={data} onSaved={saved} submitLabel="Save condition" back={back} />
          </section>
        </div>
      ) : null}
      {page === 'photos' ? <PhotosForm listing={data} onDone={saved} submitLabel="Done" back={back} /> : null}
      {page === 'price' ? (
        <PriceForm
          listing={data}
          fields={['price', 'parcel']}
          onSaved={saved}
          submitLabel="Save price"
          back={back}
        />
      ) : null}
      {page === 'withdraw' ? <WithdrawPanel listing={data} back={back} /> : null}
    </EditFrame>
  );
}

function WithdrawPanel({ listing, back }: { listing: SellerListing; back: ReactNode }) {
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const done = () => {
    void utils.selling.listings.invalidate();
    void utils.catalogue.listings.invalidate();
  };
  const withdraw = trpc.selling.listings.withdraw.useMutation({
    onSuccess: (result) => {
      done();
      if (result.done.length) {
        notify.success('Withdrawn: it is no longer on sale');
        navigate(editPath(listing.id));
      } else notify.error(result.refused[0]?.message ?? 'It could not be withdrawn.');
    },
  });
  const relist = trpc.selling.listings.relist.useMutation({
    onSuccess: () => {
      done();
      notify.success('Back on sale');
      navigate(editPath(listing.id));
    },
  });
  const error = withdraw.error ?? relist.error;
  if (listing.status === 'withdrawn') {
    return (
      <div>
        <p className="text-ink-soft">
          It goes back on sale as it is, at{' '}
          {listing.priceMinor !== null ? formatPence(listing.priceMinor) : 'its price'}, and shows among the
          newest books.
        </p>
        {error ? (
          <Alert tone="error" className="mt-4">
            {apiErrorMessage(error)}
          </Alert>
        ) : null}
        <StepActions back={back}>
          <Button
            variant="brand"
            size="lg"
            disabled={relist.isPending}
            onClick={() => relist.mutate({ listingId: listing.id })}
          >
            {relist.isPending ? 'Relisting…' : 'Put it back on sale'}
          </Button>
        </StepActions>
      </div>
    );
  }
  return (
    <div>
      <p className="text-ink-soft">
        Withdrawing takes the book off sale: nobody can buy it, and it leaves search. You can put it back on
        sale whenever you like, from your listings.
      </p>
      {error ? (
        <Alert tone="error" className="mt-4">
          {apiErrorMessage(error)}
        </Alert>
      ) : null}
      <StepActions back={back}>
        <Button
          variant="destructive"
          size="lg"
          disabled={withdraw.isPending}
          onClick={() => withdraw.mutate({ listingIds: [listing.id] })}
          data-testid="confirm-withdraw"
        >
          {withdraw.isPending ? 'Withdrawing…' : 'Withdraw listing'}
        </Button>
      </StepActions>
    </div>
  );
}
