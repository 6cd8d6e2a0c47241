import { zodResolver } from '@hookform/resolvers/zod';
import {
  type AddressInput,
  addressInputSchema,
  type DeliveryChoice,
  formatPence,
  orderButtonLabel,
  type Quote,
  type SavedAddress,
} from '@reshelf/contracts';
import {
  CheckCircle2,
  Clock,
  HandCoins,
  Lock,
  Package,
  ShieldCheck,
  Tag,
  Truck,
  XCircle,
} from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { Field } from '../../components/form/Field.tsx';
import { SubmitButton } from '../../components/form/SubmitButton.tsx';
import { PageSkeleton } from '../../components/placeholders.tsx';
import { SellerTerms } from '../../components/SellerTerms.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Input } from '../../components/ui/input.tsx';
import { notify } from '../../components/ui/notify.ts';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { formatDay, formatWhen, timeLeft } from '../../lib/dates.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { trpc } from '../../lib/trpc.ts';
import { cn } from '../../lib/utils.ts';
import {
  CHOOSE_A_POINT,
  choiceOf,
  DeliveryChoiceFieldset,
  type DeliveryPick,
  HOME_PICK,
  pickedOption,
  startChoiceOf,
} from './DeliveryChoice.tsx';
import { HeldForYou, HeldForYouOnListing } from './FinishPaying.tsx';
import { type AddressValues, NewAddressFields } from './NewAddressFields.tsx';
import { PriceLines } from './PriceLines.tsx';

const ADDRESS_KEY = 'reshelf:checkout-address';
const PROMO_KEY = 'reshelf:checkout-promo';

/**
 * What is being bought: a listing at its price (/checkout?listing=<slug>) or an accepted offer
 * at the offer's price (/checkout/offer?offer=<id>). Both go on to /checkout/confirm with the
 * same parameter, and share every component below.
 */
export type CheckoutSource = { kind: 'listing'; slug: string } | { kind: 'offer'; offerId: string };

function sourceQuery(source: CheckoutSource): string {
  return source.kind === 'offer'
    ? `offer=${encodeURIComponent(source.offerId)}`
    : `listing=${encodeURIComponent(source.slug)}`;
}

/** The first step: the book and where to send it. */
export function addressStepPath(source: CheckoutSource): string {
  return source.kind === 'offer'
    ? `/checkout/offer?${sourceQuery(source)}`
    : `/checkout?${sourceQuery(source)}`;
}

export function confirmStepPath(source: CheckoutSource): string {
  return `/checkout/confirm?${sourceQuery(source)}`;
}

/** The source in the address: `offer` wins on /checkout/confirm; each first step reads its own. */
function useSource(accept: 'listing' | 'offer' | 'either'): CheckoutSource | null {
  const [params] = useSearchParams();
  const offerId = params.get('offer') ?? '';
  const slug = params.get('listing') ?? '';
  if (offerId && accept !== 'listing') return { kind: 'offer', offerId };
  if (slug && accept !== 'offer') return { kind: 'listing', slug };
  return null;
}

function Shell({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-2xl px-4 py-8 sm:px-6 sm:py-12">
      <h1 className="text-3xl font-semibold">{title}</h1>
      <div className="mt-6 flex flex-col gap-6">{children}</div>
    </div>
  );
}

interface AcceptedOffer {
  amountMinor: number;
  askingMinor: number;
  checkoutDeadline: string | null;
}

/**
 * The server's price for the source, and for an offer the offer itself (its deadline and the
 * asking price it came down from). `problem` is the first error, to be shown instead of the page.
 */
function useCheckoutQuote(
  source: CheckoutSource | null,
  promoCode: string | null,
  /** The delivery the buyer chose (home delivery when none) and their postcode, for the date. */
  delivery: { choice?: DeliveryChoice | undefined; postcode?: string | undefined } = {},
) {
  const slug = source?.kind === 'listing' ? source.slug : '';
  const offerId = source?.kind === 'offer' ? source.offerId : '';
  const listing = trpc.catalogue.listings.bySlug.useQuery({ slug }, { enabled: slug !== '' });
  const listingId = listing.data?.id ?? '';
  const promo = {
    ...(promoCode ? { promoCode } : {}),
    ...(delivery.choice ? { delivery: delivery.choice } : {}),
    ...(delivery.postcode ? { postcode: delivery.postcode } : {}),
  };
  const quote = trpc.commerce.checkout.quote.useQuery(
    offerId ? { offerId, ...promo } : { listingId, ...promo },
    {
      enabled: offerId !== '' || listingId !== '',
      retry: false,
      // Applying or removing a code keeps the page while the new price loads (same book only).
      placeholderData: (previous) =>
        previous && (offerId ? previous.offerId === offerId : previous.listingId === listingId)
          ? previous
          : undefined,
    },
  );
  // The buyer's threads on this book (all of them while the quote is unknown or refused, so that
  // the book is known even then: "Finish paying" for an order already started from the offer).
  const threads = trpc.commerce.offers.member.list.useQuery(
    { role: 'buyer', listingId: quote.data?.listingId },
    { enabled: offerId !== '' && (Boolean(quote.data) || quote.isError) },
  );
  let offer: AcceptedOffer | null = null;
  let offerListingId: string | null = null;
  for (const thread of threads.data ?? []) {
    const round = thread.rounds.find((candidate) => candidate.id === offerId);
    if (round) {
      offerListingId = thread.listing.id;
      offer = {
        amountMinor: round.amountMinor,
        askingMinor: thread.listing.priceMinor,
        checkoutDeadline: round.checkoutDeadline,
      };
    }
  }
  const problem = listing.error ?? quote.error ?? null;
  const loading = !problem && (quote.isPending || (offerId !== '' && threads.isPending));
  return {
    listingSlug: slug || null,
    listingId: listingId || offerListingId,
    quote,
    offer,
    problem,
    loading,
  };
}

/**
 * The promo code the buyer applied, kept for this tab like the address, so it follows them from
 * the address step to the confirm step (and back).
 */
function usePromoCode(): [string | null, (code: string | null) => void] {
  const [code, setCode] = useState<string | null>(() => {
    try {
      return sessionStorage.getItem(PROMO_KEY);
    } catch {
      return null;
    }
  });
  const update = (next: string | null) => {
    try {
      if (next) sessionStorage.setItem(PROMO_KEY, next);
      else sessionStorage.removeItem(PROMO_KEY);
    } catch {
      // Private modes may refuse storage: the code still applies on this page.
    }
    setCode(next);
  };
  return [code, update];
}

interface PromoControls {
  onApply: (code: string) => void;
  onRemove: () => void;
  checking: boolean;
}

/**
 * "Promo code" with Apply and Remove. The server decides: the quote says whether the code
 * applied, was refused (shown as the field's error) or lost to WELCOME20 (one discount only).
 */
function PromoCodeField({ quote, promo }: { quote: Quote; promo: PromoControls }) {
  const [draft, setDraft] = useState('');
  const [empty, setEmpty] = useState(false);
  const outcome = quote.promo;
  if (outcome && outcome.status !== 'refused') {
    return (
      <div className="mt-4 flex flex-col gap-2 border-t border-line pt-4 text-sm" data-testid="promo-applied">
        <div className="flex items-center justify-between gap-3">
          <p className="flex min-w-0 items-center gap-2">
            <Tag aria-hidden="true" className="size-4 shrink-0 text-brand" />
            <span className="min-w-0 break-words">
              Promo code <strong>{outcome.code}</strong>
              {outcome.status === 'applied' ? ' applied' : ' not used'}
            </span>
          </p>
          <Button variant="link" size="sm" disabled={promo.checking} onClick={promo.onRemove}>
            Remove <span className="sr-only">promo code {outcome.code}</span>
          </Button>
        </div>
        {outcome.message ? (
          <p className="text-ink-soft" data-testid="promo-message">
            {outcome.message}
          </p>
        ) : null}
      </div>
    );
  }
  const error = empty ? 'Enter a promo code' : (outcome?.message ?? undefined);
  return (
    <form
      className="mt-4 border-t border-line pt-4"
      noValidate
      aria-label="Promo code"
      onSubmit={(event) => {
        event.preventDefault();
        const code = draft.trim().toUpperCase();
        setEmpty(code === '');
        if (code) promo.onApply(code);
      }}
    >
      <Field label="Promo code" optional error={error}>
        {(control) => (
          <div className="flex gap-2">
            <Input
              {...control}
              className="min-w-0 flex-1 uppercase"
              autoComplete="off"
              maxLength={40}
              value={draft}
              onChange={(event) => setDraft(event.target.value)}
            />
            <Button type="submit" variant="outline" disabled={promo.checking}>
              {promo.checking ? 'Checking…' : 'Apply'}
            </Button>
          </div>
        )}
      </Field>
      {outcome ? (
        <Button variant="link" size="sm" className="mt-1 px-0" onClick={promo.onRemove}>
          Clear <span className="sr-only">the promo code {outcome.code}</span>
        </Button>
      ) : null}
    </form>
  );
}

/** The book and its price, line by line, with the offer and its deadline when buying from one. */
function QuoteSummary({
  quote,
  offer,
  promo,
  method = quote.delivery.method,
}: {
  quote: Quote;
  offer: AcceptedOffer | null;
  promo: PromoControls;
  /** The delivery method the buyer picked: the postage and total shown are the quote's for it. */
  method?: DeliveryPick['method'];
}) {
  const option = pickedOption(quote.delivery, { method, point: null });
  const shown = {
    ...quote,
    postageMinor: option?.postageMinor ?? quote.postageMinor,
    totalMinor: option?.totalMinor ?? quote.totalMinor,
    parcel: { band: quote.delivery.band, method },
  };
  const left = offer?.checkoutDeadline ? timeLeft(offer.checkoutDeadline) : null;
  return (
    <section className="rounded-xl border border-line bg-white p-5">
      <p className="font-semibold break-words">{quote.title}</p>
      {quote.offerId && offer ? (
        <div
          className="mt-3 flex gap-2.5 rounded-lg bg-brand-soft/60 p-3 text-sm text-ink-soft"
          data-testid="offer-deadline"
        >
          <HandCoins aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-brand" />
          <p>
            Your offer of <strong className="text-ink">{formatPence(offer.amountMinor)}</strong> was accepted
            (asking price {formatPence(offer.askingMinor)}).
            {offer.checkoutDeadline ? (
              <>
                {' '}
                The seller is holding it for you until{' '}
                <strong className="text-ink">{formatWhen(offer.checkoutDeadline)}</strong>
                {left ? ` (${left} left)` : ''}: pay by then, or it goes back on sale at its full price.
              </>
            ) : null}
          </p>
        </div>
      ) : null}
      <div className="mt-4">
        <PriceLines quote={shown} itemLabel={quote.offerId ? 'Item at your offer price' : 'Item'} />
      </div>
      <PromoCodeField quote={quote} promo={promo} />
      <SellerTerms trader={quote.trader} className="mt-4" />
    </section>
  );
}

function readStoredAddress(): AddressInput | null {
  try {
    const value = sessionStorage.getItem(ADDRESS_KEY);
    return value ? (addressInputSchema.parse(JSON.parse(value)) as AddressInput) : null;
  } catch {
    return null;
  }
}

function storeAddress(address: AddressInput): void {
  sessionStorage.setItem(ADDRESS_KEY, JSON.stringify(address));
}

function sameAddress(a: AddressInput, b: AddressInput): boolean {
  const norm = (value: string | null | undefined) => (value ?? '').trim().toLowerCase();
  return (
    norm(a.fullName) === norm(b.fullName) &&
    norm(a.line1) === norm(b.line1) &&
    norm(a.line2) === norm(b.line2) &&
    norm(a.town) === norm(b.town) &&
    norm(a.postcode) === norm(b.postcode)
  );
}

function toAddress(saved: SavedAddress): AddressInput {
  return {
    fullName: saved.fullName,
    line1: saved.line1,
    line2: saved.line2,
    town: saved.town,
    postcode: saved.postcode,
  };
}

const NEW_ADDRESS = 'new';

/** /checkout?listing=<slug>: the book and where to send it. */
export function CheckoutPage() {
  usePageMeta('Checkout', 'Where should we send your book?');
  const source = useSource('listing');
  if (!source)
    return <CheckoutProblem message="Choose a book first: this checkout link has no book in it." />;
  return <AddressStep source={source} />;
}

/** /checkout/offer?offer=<id>: the same, priced from the buyer's accepted offer. */
export function CheckoutOfferPage() {
  usePageMeta('Checkout', 'Buy the book at the price you agreed with the seller.');
  const source = useSource('offer');
  if (!source) {
    return (
      <CheckoutProblem
        message="This checkout link has no offer in it. Open it from your offers."
        source={{ kind: 'offer', offerId: '' }}
      />
    );
  }
  return <AddressStep source={source} />;
}

function AddressStep({ source }: { source: CheckoutSource }) {
  const navigate = useNavigate();
  const [promoCode, setPromoCode] = usePromoCode();
  const { quote, offer, problem, loading, listingSlug, listingId } = useCheckoutQuote(source, promoCode);
  const utils = trpc.useUtils();
  const saved = trpc.commerce.checkout.addresses.useQuery(undefined, { staleTime: 0 });
  const saveAddress = trpc.commerce.checkout.saveAddress.useMutation({
    onSuccess: () => void utils.commerce.checkout.addresses.invalidate(),
  });
  const removeAddress = trpc.commerce.checkout.removeAddress.useMutation({
    onSuccess: () => {
      void utils.commerce.checkout.addresses.invalidate();
      notify.success('Address removed');
    },
    onError: (error) => notify.error(apiErrorMessage(error)),
  });
  const previous = useMemo(readStoredAddress, []);
  const [choice, setChoice] = useState<string | null>(null);
  const [saveForNextTime, setSaveForNextTime] = useState(false);
  const form = useForm<AddressValues>({
    resolver: zodResolver(addressInputSchema),
    defaultValues: {
      fullName: previous?.fullName ?? '',
      line1: previous?.line1 ?? '',
      line2: previous?.line2 ?? '',
      town: previous?.town ?? '',
      postcode: previous?.postcode ?? '',
    },
  });

  const addresses = saved.data ?? [];
  // Until the buyer picks: the address they used a moment ago, else their default.
  const preselected = (() => {
    const match = previous ? addresses.find((address) => sameAddress(address, previous)) : undefined;
    if (match) return match.id;
    if (previous) return NEW_ADDRESS;
    return addresses.find((address) => address.isDefault)?.id ?? addresses[0]?.id ?? NEW_ADDRESS;
  })();
  const selected =
    choice && (choice === NEW_ADDRESS || addresses.some((address) => address.id === choice))
      ? choice
      : preselected;

  if (problem)
    return (
      <CheckoutProblem
        message={apiErrorMessage(problem)}
        source={source}
        slug={listingSlug}
        listingId={listingId}
      />
    );
  if (loading || !quote.data || saved.isPending) return <PageSkeleton />;
  const next = (address: AddressInput) => {
    storeAddress(address);
    navigate(confirmStepPath(source));
  };
  const submitNew = form.handleSubmit(async (values) => {
    const address = addressInputSchema.parse(values);
    if (saveForNextTime) {
      try {
        await saveAddress.mutateAsync({ address, makeDefault: addresses.length === 0 });
      } catch {
        return; // The reason is shown above the button.
      }
    }
    next(address);
  });

  return (
    <Shell title="Checkout">
      <QuoteSummary
        quote={quote.data}
        offer={offer}
        promo={{ onApply: setPromoCode, onRemove: () => setPromoCode(null), checking: quote.isFetching }}
      />
      <form
        className="flex flex-col gap-4 rounded-xl border border-line bg-white p-5"
        noValidate
        aria-label="Delivery address"
        onSubmit={(event) => {
          const chosen = addresses.find((address) => address.id === selected);
          if (selected !== NEW_ADDRESS && chosen) {
            event.preventDefault();
            next(toAddress(chosen));
            return;
          }
          void submitNew(event);
        }}
      >
        <h2 className="text-lg font-semibold">Delivery address (UK)</h2>
        {saved.isError ? (
          <Alert tone="info">We couldn’t load your saved addresses, so enter the address here.</Alert>
        ) : null}
        {addresses.length ? (
          <fieldset className="flex flex-col gap-2" data-testid="saved-addresses">
            <legend className="sr-only">Where to send it</legend>
            {addresses.map((address) => (
              <div
                key={address.id}
                className={cn(
                  'flex items-start gap-3 rounded-xl border p-3 transition-colors has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand',
                  selected === address.id ? 'border-brand bg-brand-soft/40' : 'border-line',
                )}
                data-testid="saved-address"
              >
                <label className="flex min-w-0 flex-1 cursor-pointer items-start gap-3 text-sm">
                  <input
                    type="radio"
                    name="saved-address"
                    className="mt-1 size-4 shrink-0 accent-brand"
                    checked={selected === address.id}
                    onChange={() => setChoice(address.id)}
                  />
                  <span className="min-w-0 break-words">
                    <span className="font-semibold text-ink">{address.fullName}</span>
                    {address.isDefault ? (
                      <span className="ml-2 rounded-full bg-moss-soft px-2 py-0.5 text-xs font-semibold text-moss">
                        Default
                      </span>
                    ) : null}
                    <span className="block text-ink-soft">
                      {[address.line1, address.line2, address.town, address.postcode]
                        .filter(Boolean)
                        .join(', ')}
                    </span>
                  </span>
                </label>
                <Button
                  variant="link"
                  size="sm"
                  className="shrink-0 text-sm"
                  disabled={removeAddress.isPending}
                  aria-label={`Remove the address for ${address.fullName}, ${address.line1}`}
                  onClick={() => removeAddress.mutate({ addressId: address.id })}
                >
                  Remove
                </Button>
              </div>
            ))}
            <label
              className={cn(
                'flex cursor-pointer items-center gap-3 rounded-xl border p-3 text-sm font-semibold has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand',
                selected === NEW_ADDRESS ? 'border-brand bg-brand-soft/40' : 'border-line',
              )}
            >
              <input
                type="radio"
                name="saved-address"
                className="size-4 shrink-0 accent-brand"
                checked={selected === NEW_ADDRESS}
                onChange={() => setChoice(NEW_ADDRESS)}
              />
              Send it to a new address
            </label>
          </fieldset>
        ) : null}
        {selected === NEW_ADDRESS ? (
          <NewAddressFields
            form={form}
            saveForNextTime={saveForNextTime}
            onSaveForNextTime={setSaveForNextTime}
            saveHint={
              addresses.length
                ? 'It will be offered with your other saved addresses.'
                : 'It becomes your default address.'
            }
          />
        ) : null}
        {saveAddress.isError ? <Alert tone="error">{apiErrorMessage(saveAddress.error)}</Alert> : null}
        <SubmitButton pending={form.formState.isSubmitting}>Continue to confirm</SubmitButton>
      </form>
    </Shell>
  );
}

/** /checkout/confirm?listing=<slug> or ?offer=<id>: the full price and the one button that pays. */
export function CheckoutConfirmPage() {
  usePageMeta('Confirm and pay', 'Check your order and pay securely.');
  const navigate = useNavigate();
  const source = useSource('either');
  const [promoCode, setPromoCode] = usePromoCode();
  const address = useMemo(readStoredAddress, []);
  // Home delivery (tracked) is preselected; a drop-off is priced once its point is picked.
  const [pick, setPick] = useState<DeliveryPick>(HOME_PICK);
  const [pickError, setPickError] = useState<string | null>(null);
  const { quote, offer, problem, loading, listingSlug, listingId } = useCheckoutQuote(source, promoCode, {
    choice: choiceOf(pick),
    postcode: address?.postcode,
  });
  // One key per attempt on this page: a retried click or a flaky network cannot pay twice.
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  const utils = trpc.useUtils();
  const start = trpc.commerce.checkout.start.useMutation({
    onSuccess: (result) => {
      window.location.assign(result.redirectUrl);
    },
    // A code may have run out since the page priced it: show the fresh price and the reason.
    onError: () => void utils.commerce.checkout.quote.invalidate(),
  });
  useEffect(() => {
    if (source && !address) navigate(addressStepPath(source), { replace: true });
  }, [source, address, navigate]);
  if (!source)
    return <CheckoutProblem message="Choose a book first: this checkout link has no book in it." />;
  if (problem)
    return (
      <CheckoutProblem
        message={apiErrorMessage(problem)}
        source={source}
        slug={listingSlug}
        listingId={listingId}
      />
    );
  if (!address || loading || !quote.data) return <PageSkeleton />;
  const priced = quote.data;
  // Only a code that took money off goes with the payment; a refused one is shown, not sent.
  const promo = priced.promo?.status === 'applied' ? { promoCode: priced.promo.code } : {};
  const picked = pickedOption(priced.delivery, pick);
  const pay = () => {
    const delivery = startChoiceOf(pick);
    if (!delivery) {
      setPickError(CHOOSE_A_POINT);
      return;
    }
    start.mutate(
      source.kind === 'offer'
        ? { offerId: source.offerId, address, idempotencyKey, delivery, ...promo }
        : { listingId: priced.listingId, address, idempotencyKey, delivery, ...promo },
    );
  };
  return (
    <Shell title="Confirm and pay">
      <QuoteSummary
        quote={priced}
        offer={offer}
        method={pick.method}
        promo={{ onApply: setPromoCode, onRemove: () => setPromoCode(null), checking: quote.isFetching }}
      />
      <section className="rounded-xl border border-line bg-white p-5" aria-label="Delivery">
        <DeliveryChoiceFieldset
          delivery={priced.delivery}
          pick={pick}
          onPick={(next) => {
            setPick(next);
            setPickError(null);
          }}
          postcode={address.postcode}
          error={pickError}
        />
      </section>
      <section className="rounded-xl border border-line bg-white p-5 text-sm">
        <div className="flex items-start justify-between gap-4">
          <div className="min-w-0">
            <h2 className="text-base font-semibold">Sending to</h2>
            <address className="mt-1 not-italic break-words text-ink-soft" data-testid="address">
              {address.fullName}
              <br />
              {address.line1}
              {address.line2 ? (
                <>
                  <br />
                  {address.line2}
                </>
              ) : null}
              <br />
              {address.town} {address.postcode}
            </address>
          </div>
          <Link className="font-semibold text-brand underline" to={addressStepPath(source)}>
            Change
          </Link>
        </div>
      </section>
      <p className="flex items-start gap-2 text-sm text-ink-soft">
        <ShieldCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-emerald-700" />
        Buyer protection: the seller is paid only when you have the book and are happy with it. The book is
        reserved for you for 15 minutes while you pay.
      </p>
      {start.isError ? <Alert tone="error">{apiErrorMessage(start.error)}</Alert> : null}
      <Button size="lg" variant="cta" disabled={start.isPending || start.isSuccess} onClick={pay}>
        <Lock aria-hidden="true" className="size-4" />
        {start.isPending || start.isSuccess
          ? 'Opening the payment page…'
          : orderButtonLabel(picked?.totalMinor ?? priced.totalMinor)}
      </Button>
    </Shell>
  );
}

function CheckoutProblem({
  message,
  source,
  slug,
  listingId,
}: {
  message: string;
  source?: CheckoutSource;
  slug?: string | null;
  /** The book, when known: a buyer who already holds it gets "Finish paying" here. */
  listingId?: string | null;
}) {
  return (
    <Shell title="Checkout">
      <Alert tone="error">{message}</Alert>
      {listingId ? <HeldForYouOnListing listingId={listingId} /> : null}
      <div className="flex flex-wrap gap-3">
        {slug ? (
          <Button asChild variant="outline">
            <Link to={`/listing/${encodeURIComponent(slug)}`}>Back to the book</Link>
          </Button>
        ) : null}
        {source?.kind === 'offer' ? (
          <Button asChild variant="outline">
            <Link to="/account/offers?view=made">
              <Clock aria-hidden="true" />
              Your offers
            </Link>
          </Button>
        ) : null}
        <Button asChild>
          <Link to="/listings">Browse books</Link>
        </Button>
      </div>
    </Shell>
  );
}

/**
 * /checkout/success?order=: waits the moment the provider's webhook may take, then thanks and
 * says what happens next. Paid is not sent: the seller has 5 working days to send it.
 */
export function CheckoutSuccessPage() {
  usePageMeta('Order placed', 'Thank you for your order.');
  const [params] = useSearchParams();
  const orderId = params.get('order') ?? '';
  // A basket's payment: several orders, one per seller, paid (or not) together.
  const paymentId = params.get('payment') ?? '';
  const order = trpc.commerce.checkout.order.useQuery(
    { orderId },
    {
      enabled: orderId !== '',
      refetchInterval: (query) => (query.state.data?.status === 'pending_payment' ? 1000 : false),
    },
  );
  const paymentOrders = trpc.commerce.checkout.paymentOrders.useQuery(
    { checkoutPaymentId: paymentId },
    { enabled: paymentId !== '' },
  );
  if (!orderId) return <CheckoutProblem message="This page needs an order." />;
  if (order.isPending) return <PageSkeleton />;
  if (order.isError) return <CheckoutProblem message={apiErrorMessage(order.error)} />;
  const paid = order.data.status !== 'pending_payment' && order.data.status !== 'cancelled';
  const dispatchBy = order.data.dispatchBy;
  const several = (paymentOrders.data?.orders.length ?? 0) > 1 ? paymentOrders.data?.orders : null;
  if (several) {
    return (
      <Shell title={paid ? 'Thank you: your orders are paid' : 'Confirming your payment…'}>
        <section className="rounded-xl border border-line bg-white p-5" data-testid="payment-orders">
          <p className="flex items-center gap-2 font-semibold">
            {paid ? <CheckCircle2 aria-hidden="true" className="size-5 shrink-0 text-emerald-700" /> : null}
            {several.length} orders, one payment of {formatPence(paymentOrders.data?.totalMinor ?? 0)}
          </p>
          <p className="mt-1 text-sm text-ink-soft" data-testid="order-status">
            {paid
              ? 'Paid. Each seller sends you one parcel within 5 working days, and we’ll email you at each step.'
              : order.data.status === 'cancelled'
                ? `These orders were cancelled: ${order.data.cancelReason ?? 'the payment did not complete'}.`
                : 'We are waiting for the payment provider to confirm. This takes a moment.'}
          </p>
          <ul className="mt-4 flex flex-col divide-y divide-line">
            {several.map((each) => (
              <li
                key={each.id}
                className="flex items-start justify-between gap-4 py-3"
                data-testid="payment-order"
              >
                <div className="min-w-0">
                  <p className="font-semibold">
                    {paid ? (
                      <Link to={`/account/orders/${each.id}`} className="text-brand underline">
                        Order {each.reference}
                      </Link>
                    ) : (
                      `Order ${each.reference}`
                    )}
                  </p>
                  <p className="text-sm text-ink-soft" data-testid="payment-order-seller">
                    From {each.sellerName}
                  </p>
                  <p className="text-sm break-words text-ink-soft">{each.titles.join(', ')}</p>
                </div>
                <span className="shrink-0 font-semibold tabular-nums">{formatPence(each.totalMinor)}</span>
              </li>
            ))}
          </ul>
        </section>
        <div className="flex flex-wrap gap-3">
          {paid ? (
            <Button asChild variant="brand">
              <Link to="/account/orders">Track your orders</Link>
            </Button>
          ) : null}
          <Button asChild variant="outline">
            <Link to="/listings">Keep browsing</Link>
          </Button>
        </div>
      </Shell>
    );
  }
  return (
    <Shell title={paid ? 'Thank you: your order is paid' : 'Confirming your payment…'}>
      <section className="rounded-xl border border-line bg-white p-5" data-testid="order-summary">
        <p className="flex items-center gap-2 font-semibold">
          {paid ? <CheckCircle2 aria-hidden="true" className="size-5 shrink-0 text-emerald-700" /> : null}
          Order {order.data.reference}: {order.data.title}
        </p>
        <p className="mt-1 text-sm text-ink-soft" data-testid="order-status">
          {paid
            ? 'Paid. The seller has 5 working days to send it, and we’ll email you at each step.'
            : order.data.status === 'cancelled'
              ? `This order was cancelled: ${order.data.cancelReason ?? 'the payment did not complete'}.`
              : 'We are waiting for the payment provider to confirm. This takes a moment.'}
        </p>
        <div className="mt-4">
          <PriceLines quote={order.data} />
        </div>
      </section>
      {paid ? (
        <section className="rounded-xl border border-line bg-white p-5" data-testid="what-next">
          <h2 className="text-lg font-semibold">What happens next</h2>
          <ol className="mt-3 flex flex-col gap-3 text-sm text-ink-soft">
            <li className="flex gap-3">
              <Package aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-brand" />
              <span>
                The seller posts it within 5 working days
                {dispatchBy ? (
                  <>
                    {' '}
                    — by <strong className="text-ink">{formatDay(dispatchBy)}</strong>
                  </>
                ) : null}
                . If they don’t, the order is cancelled and you get all your money back.
              </span>
            </li>
            <li className="flex gap-3">
              <Truck aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-brand" />
              <span>We email you the carrier and tracking reference as soon as it’s on its way.</span>
            </li>
            <li className="flex gap-3">
              <ShieldCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-emerald-700" />
              <span>The seller is paid only once you have the book and tell us everything is OK.</span>
            </li>
          </ol>
        </section>
      ) : null}
      <div className="flex flex-wrap gap-3">
        {paid ? (
          <Button asChild variant="brand">
            <Link to={`/account/orders/${order.data.id}`}>Track your order</Link>
          </Button>
        ) : null}
        <Button asChild variant="outline">
          <Link to="/listings">Keep browsing</Link>
        </Button>
      </div>
    </Shell>
  );
}

function CancelShell({ children }: { children: React.ReactNode }) {
  return (
    <Shell title="Payment not completed">
      {children}
      <div className="flex flex-wrap gap-3">
        <Button asChild variant="outline">
          <Link to="/listings">Browse books</Link>
        </Button>
      </div>
    </Shell>
  );
}

function NothingTaken({ children }: { children?: React.ReactNode }) {
  return (
    <p className="flex items-start gap-2 text-ink-soft" data-testid="cancel-message">
      <XCircle aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-destructive" />
      <span>Nothing was taken from your account.{children ? <> {children}</> : null}</span>
    </p>
  );
}

/**
 * /checkout/cancel?order=: the buyer came back without paying; nothing was taken. While the
 * book is still held for them, "Finish paying" goes back to the same payment. Once the order
 * is cancelled: a book from an accepted offer is still held for its buyer until the offer's
 * deadline ("Try again" at the offer price); any other book is offered again only if it is
 * really back on sale. Without an order, the page says nothing about a book.
 */
export function CheckoutCancelPage() {
  usePageMeta('Payment not completed', 'Your payment did not go through.');
  const [params] = useSearchParams();
  const orderId = params.get('order') ?? '';
  const order = trpc.commerce.checkout.order.useQuery({ orderId }, { enabled: orderId !== '', retry: false });
  const cancelled = order.data?.status === 'cancelled';
  const slug = (cancelled && order.data?.listingSlug) || '';
  const listing = trpc.catalogue.listings.bySlug.useQuery({ slug }, { enabled: slug !== '', retry: false });
  const threads = trpc.commerce.offers.member.list.useQuery(
    { role: 'buyer', listingId: listing.data?.id },
    { enabled: Boolean(listing.data) },
  );

  if (!orderId || order.isError) {
    return (
      <CancelShell>
        <NothingTaken>Your payment didn’t go through.</NothingTaken>
      </CancelShell>
    );
  }
  if (order.isPending) return <PageSkeleton />;
  const detail = order.data;

  if (detail.status === 'pending_payment') {
    return (
      <CancelShell>
        {detail.canFinishPaying && detail.reservedUntil ? (
          <>
            <NothingTaken>
              You left the payment page before paying. We’re still holding “{detail.title}” for you, so you
              can finish paying now.
            </NothingTaken>
            <HeldForYou
              orderId={detail.id}
              reservedUntil={detail.reservedUntil}
              order={{ reference: detail.reference, totalMinor: detail.totalMinor }}
            />
          </>
        ) : (
          <NothingTaken>
            The 15 minutes we held “{detail.title}” for you have run out, so the order will be cancelled.
          </NothingTaken>
        )}
      </CancelShell>
    );
  }
  if (!cancelled) {
    return (
      <Shell title="This order is paid">
        <p className="text-ink-soft" data-testid="cancel-message">
          Order {detail.reference} for “{detail.title}” went through after all.
        </p>
        <div className="flex flex-wrap gap-3">
          <Button asChild variant="brand">
            <Link to={`/account/orders/${detail.id}`}>Track your order</Link>
          </Button>
        </div>
      </Shell>
    );
  }

  const payable = threads.data?.find((thread) => thread.actions.canPay);
  // Known once the listing (and, if it loaded, the buyer's offers on it) have answered.
  const settled = slug === '' || (!listing.isPending && (!listing.data || !threads.isPending));
  if (!settled) return <PageSkeleton />;
  const onSale = listing.data?.available === true;
  const retry: CheckoutSource | null = payable
    ? { kind: 'offer', offerId: payable.currentId }
    : onSale
      ? { kind: 'listing', slug }
      : null;
  const reason = detail.cancelReason ? ` (${detail.cancelReason.toLowerCase()})` : '';
  return (
    <Shell title="Payment not completed">
      <p className="flex items-start gap-2 text-ink-soft" data-testid="cancel-message">
        <XCircle aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-destructive" />
        <span>
          Nothing was taken from your account{reason}.{' '}
          {payable
            ? 'The seller is still holding the book for you at your offer price, so you can try again now.'
            : onSale
              ? 'The book is back on sale, so if you still want it, you can try again now.'
              : 'The book is no longer for sale.'}
        </span>
      </p>
      <div className="flex flex-wrap gap-3">
        {retry ? (
          <Button asChild>
            <Link to={addressStepPath(retry)}>Try again</Link>
          </Button>
        ) : null}
        <Button asChild variant="outline">
          <Link to="/listings">Browse books</Link>
        </Button>
      </div>
    </Shell>
  );
}
