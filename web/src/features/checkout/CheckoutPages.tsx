import { zodResolver } from '@hookform/resolvers/zod';
import { type AddressInput, addressInputSchema, formatPence, type Quote } from '@reshelf/contracts';
import { CheckCircle2, Lock, ShieldCheck, XCircle } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import type { z } from 'zod';
import { Field } from '../../components/form/Field.tsx';
import { SubmitButton } from '../../components/form/SubmitButton.tsx';
import { PageSkeleton } from '../../components/placeholders.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Input } from '../../components/ui/input.tsx';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { trpc } from '../../lib/trpc.ts';

const ADDRESS_KEY = 'reshelf:checkout-address';
const PARCEL_LABELS = { small: 'Small parcel', medium: 'Medium parcel', large: 'Large parcel' } as const;

function Shell({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-2xl px-4 py-8 sm:px-6 sm:py-12">
      <h1 className="text-3xl font-semibold">{title}</h1>
      <div className="mt-6 flex flex-col gap-6">{children}</div>
    </div>
  );
}

/** The listing the buyer came from (by slug) and the server's price for them. */
function useCheckoutQuote() {
  const [params] = useSearchParams();
  const slug = params.get('listing') ?? '';
  const listing = trpc.listings.bySlug.useQuery({ slug }, { enabled: slug !== '' });
  const listingId = listing.data?.id;
  const quote = trpc.checkout.quote.useQuery(
    { listingId: listingId ?? '' },
    { enabled: Boolean(listingId), retry: false },
  );
  return { slug, listing, quote };
}

export function PriceLines({
  quote,
}: {
  quote: Pick<
    Quote,
    'itemMinor' | 'postageMinor' | 'protectionMinor' | 'protectionVatMinor' | 'discountMinor' | 'totalMinor'
  > & { discountCode: string | null; parcelSize?: Quote['parcelSize'] };
}) {
  return (
    <dl className="flex flex-col gap-2 text-sm" data-testid="price-lines">
      <div className="flex justify-between">
        <dt>Item</dt>
        <dd>{formatPence(quote.itemMinor)}</dd>
      </div>
      <div className="flex justify-between">
        <dt>Postage{quote.parcelSize ? ` (${PARCEL_LABELS[quote.parcelSize].toLowerCase()})` : ''}</dt>
        <dd>{formatPence(quote.postageMinor)}</dd>
      </div>
      <div className="flex justify-between">
        <dt>
          Buyer protection
          <span className="block text-xs text-ink-muted">
            includes VAT of {formatPence(quote.protectionVatMinor)}
          </span>
        </dt>
        <dd>{formatPence(quote.protectionMinor)}</dd>
      </div>
      {quote.discountMinor > 0 ? (
        <div className="flex justify-between text-emerald-800" data-testid="discount-line">
          <dt>{quote.discountCode ?? 'Discount'}: 20% off your first order</dt>
          <dd>−{formatPence(quote.discountMinor)}</dd>
        </div>
      ) : null}
      <div className="mt-2 flex justify-between border-t border-line pt-3 text-base font-semibold">
        <dt>Total</dt>
        <dd data-testid="total">{formatPence(quote.totalMinor)}</dd>
      </div>
    </dl>
  );
}

function savedAddress(): AddressInput | null {
  try {
    const value = sessionStorage.getItem(ADDRESS_KEY);
    return value ? (addressInputSchema.parse(JSON.parse(value)) as AddressInput) : null;
  } catch {
    return null;
  }
}

type AddressValues = z.input<typeof addressInputSchema>;

/** /checkout?listing=<slug>: the book and where to send it. */
export function CheckoutPage() {
  usePageMeta('Checkout', 'Where should we send your book?');
  const navigate = useNavigate();
  const { slug, listing, quote } = useCheckoutQuote();
  const previous = useMemo(savedAddress, []);
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
  if (!slug) return <CheckoutProblem message="Choose a book first: this checkout link has no book in it." />;
  if (listing.isPending || quote.isPending) return <PageSkeleton />;
  if (listing.isError || quote.isError)
    return <CheckoutProblem message={apiErrorMessage(listing.error ?? quote.error)} slug={slug} />;
  const errors = form.formState.errors;
  return (
    <Shell title="Checkout">
      <section className="rounded-xl border border-line bg-white p-5">
        <p className="font-semibold">{quote.data.title}</p>
        <div className="mt-4">
          <PriceLines quote={quote.data} />
        </div>
      </section>
      <form
        className="flex flex-col gap-4 rounded-xl border border-line bg-white p-5"
        noValidate
        onSubmit={form.handleSubmit((values) => {
          sessionStorage.setItem(ADDRESS_KEY, JSON.stringify(addressInputSchema.parse(values)));
          navigate(`/checkout/confirm?listing=${encodeURIComponent(slug)}`);
        })}
      >
        <h2 className="text-lg font-semibold">Delivery address (UK)</h2>
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
        <SubmitButton pending={form.formState.isSubmitting}>Continue to confirm</SubmitButton>
      </form>
    </Shell>
  );
}

/** /checkout/confirm?listing=<slug>: the full price and the one button that pays. */
export function CheckoutConfirmPage() {
  usePageMeta('Confirm and pay', 'Check your order and pay securely.');
  const navigate = useNavigate();
  const { slug, listing, quote } = useCheckoutQuote();
  const address = useMemo(savedAddress, []);
  // One key per attempt on this page: a retried click or a flaky network cannot pay twice.
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  const start = trpc.checkout.start.useMutation({
    onSuccess: (result) => {
      window.location.assign(result.redirectUrl);
    },
  });
  useEffect(() => {
    if (slug && !address) navigate(`/checkout?listing=${encodeURIComponent(slug)}`, { replace: true });
  }, [slug, address, navigate]);
  if (!slug) return <CheckoutProblem message="Choose a book first: this checkout link has no book in it." />;
  if (!address || listing.isPending || quote.isPending) return <PageSkeleton />;
  if (listing.isError || quote.isError)
    return <CheckoutProblem message={apiErrorMessage(listing.error ?? quote.error)} slug={slug} />;
  return (
    <Shell title="Confirm and pay">
      <section className="rounded-xl border border-line bg-white p-5">
        <p className="font-semibold">{quote.data.title}</p>
        <div className="mt-4">
          <PriceLines quote={quote.data} />
        </div>
      </section>
      <section className="rounded-xl border border-line bg-white p-5 text-sm">
        <div className="flex items-start justify-between gap-4">
          <div>
            <h2 className="text-base font-semibold">Sending to</h2>
            <address className="mt-1 not-italic text-ink-soft" data-testid="address">
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
          <Link
            className="font-semibold text-brand underline"
            to={`/checkout?listing=${encodeURIComponent(slug)}`}
          >
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
      <Button
        size="lg"
        variant="cta"
        disabled={start.isPending || start.isSuccess}
        onClick={() => start.mutate({ listingId: quote.data.listingId, address, idempotencyKey })}
      >
        <Lock aria-hidden="true" className="size-4" />
        {start.isPending || start.isSuccess
          ? 'Opening the payment page…'
          : `Pay ${formatPence(quote.data.totalMinor)}`}
      </Button>
    </Shell>
  );
}

function CheckoutProblem({ message, slug }: { message: string; slug?: string }) {
  return (
    <Shell title="Checkout">
      <Alert tone="error">{message}</Alert>
      <div className="flex flex-wrap gap-3">
        {slug ? (
          <Button asChild variant="outline">
            <Link to={`/listing/${encodeURIComponent(slug)}`}>Back to the book</Link>
          </Button>
        ) : null}
        <Button asChild>
          <Link to="/listings">Browse books</Link>
        </Button>
      </div>
    </Shell>
  );
}

/** /checkout/success?order=: waits the moment the provider's webhook may take, then thanks. */
export function CheckoutSuccessPage() {
  usePageMeta('Order placed', 'Thank you for your order.');
  const [params] = useSearchParams();
  const orderId = params.get('order') ?? '';
  const order = trpc.checkout.order.useQuery(
    { orderId },
    {
      enabled: orderId !== '',
      refetchInterval: (query) => (query.state.data?.status === 'pending_payment' ? 1000 : false),
    },
  );
  if (!orderId) return <CheckoutProblem message="This page needs an order." />;
  if (order.isPending) return <PageSkeleton />;
  if (order.isError) return <CheckoutProblem message={apiErrorMessage(order.error)} />;
  const paid = order.data.status !== 'pending_payment' && order.data.status !== 'cancelled';
  return (
    <Shell title={paid ? 'Thank you: your book is on its way' : 'Confirming your payment…'}>
      <section className="rounded-xl border border-line bg-white p-5" data-testid="order-summary">
        <p className="flex items-center gap-2 font-semibold">
          {paid ? <CheckCircle2 aria-hidden="true" className="size-5 text-emerald-700" /> : null}
          Order {order.data.reference}: {order.data.title}
        </p>
        <p className="mt-1 text-sm text-ink-soft" data-testid="order-status">
          {paid
            ? 'Paid. The seller has 5 working days to send it, and we will email you at each step.'
            : order.data.status === 'cancelled'
              ? `This order was cancelled: ${order.data.cancelReason ?? 'the payment did not complete'}.`
              : 'We are waiting for the payment provider to confirm. This takes a moment.'}
        </p>
        <div className="mt-4">
          <PriceLines quote={order.data} />
        </div>
      </section>
      <Button asChild variant="outline">
        <Link to="/listings">Keep browsing</Link>
      </Button>
    </Shell>
  );
}

/** /checkout/cancel?order=: the payment did not complete; nothing was taken. */
export function CheckoutCancelPage() {
  usePageMeta('Payment not completed', 'Your payment did not go through.');
  const [params] = useSearchParams();
  const orderId = params.get('order') ?? '';
  const order = trpc.checkout.order.useQuery({ orderId }, { enabled: orderId !== '', retry: false });
  const slug = order.data?.listingSlug ?? undefined;
  return (
    <Shell title="Payment not completed">
      <p className="flex items-start gap-2 text-ink-soft" data-testid="cancel-message">
        <XCircle aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-destructive" />
        Nothing was taken from your account
        {order.data?.cancelReason ? ` (${order.data.cancelReason.toLowerCase()})` : ''}. The book has gone
        back on sale, so if you still want it, you can try again now.
      </p>
      <div className="flex flex-wrap gap-3">
        {slug ? (
          <Button asChild>
            <Link to={`/checkout?listing=${encodeURIComponent(slug)}`}>Try again</Link>
          </Button>
        ) : null}
        <Button asChild variant="outline">
          <Link to="/listings">Browse books</Link>
        </Button>
      </div>
    </Shell>
  );
}
