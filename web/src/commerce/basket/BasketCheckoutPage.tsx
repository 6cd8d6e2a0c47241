/**
 * /checkout/basket (signed in): the whole basket, or one seller's group (?group=<key>), paid
 * in one payment. The page shows every parcel's price from the server's quote, asks where to
 * send them, and pays with the totals the buyer was shown: if the server's price differs by
 * then, it refuses, and the page shows the new quote and asks again.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import {
  type AddressInput,
  addressInputSchema,
  type BasketQuote,
  formatPence,
  orderButtonLabel,
  plural,
} from '@reshelf/contracts';
import { Lock, ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router-dom';
import { PageSkeleton } from '../../components/placeholders.tsx';
import { SellerTerms } from '../../components/SellerTerms.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { apiErrorCode, apiErrorMessage } from '../../lib/api-errors.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { trpc } from '../../lib/trpc.ts';
import { cn } from '../../lib/utils.ts';
import { type AddressValues, NewAddressFields } from '../checkout/NewAddressFields.tsx';
import { availableIds, PromoForm } from './BasketPage.tsx';
import { booksWord } from './basket-view.ts';
import { GroupPriceLines } from './GroupPriceLines.tsx';
import { useMemberBasketReady } from './hooks.ts';
import { useBasketPromo } from './promo.ts';

const NEW_ADDRESS = 'new';

export function BasketCheckoutPage() {
  usePageMeta('Checkout', 'Pay for your basket in one payment: one parcel from each seller.');
  const [params] = useSearchParams();
  const only = params.get('group');
  const ready = useMemberBasketReady();
  const basket = trpc.commerce.basket.member.list.useQuery(undefined, { staleTime: 0, enabled: ready });
  const [promoCode, setPromoCode] = useBasketPromo();
  const groups = (basket.data?.groups ?? []).filter((group) => !only || group.key === only);
  const ids = availableIds(groups);
  const quote = trpc.commerce.basket.member.quote.useQuery(
    { listingIds: ids, promoCode },
    { enabled: ids.length > 0, placeholderData: (previous) => previous, retry: false },
  );

  if (basket.isPending || (ids.length > 0 && quote.isPending)) return <PageSkeleton />;
  const problem = basket.error ?? (ids.length > 0 ? quote.error : null);
  if (problem || ids.length === 0 || !quote.data) {
    return (
      <Shell>
        <Alert tone="error">
          {problem
            ? apiErrorMessage(problem)
            : 'There is nothing in your basket to pay for: the books may have sold meanwhile.'}
        </Alert>
        <div className="flex flex-wrap gap-3">
          <Button asChild variant="outline">
            <Link to="/basket">Back to your basket</Link>
          </Button>
        </div>
      </Shell>
    );
  }
  return (
    <Shell>
      <CheckoutBody
        quote={quote.data}
        listingIds={ids}
        checking={quote.isFetching}
        onPromo={setPromoCode}
        refetchQuote={() => quote.refetch()}
      />
    </Shell>
  );
}

function Shell({ children }: { children: React.ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-2xl px-4 py-8 sm:px-6 sm:py-12">
      <p className="text-sm font-semibold text-brand">
        <Link to="/basket" className="hover:underline">
          Your basket
        </Link>
      </p>
      <h1 className="mt-1 text-3xl font-semibold">Checkout</h1>
      <div className="mt-6 flex flex-col gap-6">{children}</div>
    </div>
  );
}

function CheckoutBody({
  quote,
  listingIds,
  checking,
  onPromo,
  refetchQuote,
}: {
  quote: BasketQuote;
  listingIds: string[];
  checking: boolean;
  onPromo: (code: string | null) => void;
  refetchQuote: () => Promise<unknown>;
}) {
  // One key per attempt: a retried click or a flaky network cannot pay twice; a new quote, a new key.
  const [idempotencyKey, setIdempotencyKey] = useState(() => crypto.randomUUID());
  const [changedFrom, setChangedFrom] = useState<number | null>(null);
  const utils = trpc.useUtils();
  const start = trpc.commerce.checkout.startBasket.useMutation({
    onSuccess: (result) => window.location.assign(result.redirectUrl),
    onError: (error) => {
      if (apiErrorCode(error) === 'PRECONDITION_FAILED') {
        setChangedFrom(quote.totalMinor);
        setIdempotencyKey(crypto.randomUUID());
        void utils.commerce.basket.member.invalidate();
        void refetchQuote();
      }
    },
  });
  const parcels = quote.groups.length;
  const pay = (address: AddressInput) => {
    start.mutate({
      listingIds: quote.groups.flatMap((group) => group.items.map((item) => item.listingId)),
      address,
      ...(quote.promo?.status === 'applied' ? { promoCode: quote.promo.code } : {}),
      idempotencyKey,
      quotedTotalMinor: quote.totalMinor,
      quotedGroups: quote.groups.map((group) => ({ key: group.key, totalMinor: group.totalMinor })),
    });
  };
  const changed = start.isError && apiErrorCode(start.error) === 'PRECONDITION_FAILED';
  const dropped = listingIds.length - quote.groups.reduce((sum, group) => sum + group.items.length, 0);
  return (
    <>
      {quote.groups.map((group) => (
        <section
          key={group.key}
          aria-label={`From ${group.sellerName}`}
          className="rounded-xl border border-line bg-paper p-5 shadow-card"
          data-testid="checkout-group"
        >
          <h2 className="font-serif text-lg font-semibold break-words">
            {group.sellerName}
            <span className="ml-2 font-sans text-sm font-normal text-ink-muted">
              {booksWord(group.bookCount)}, one parcel
            </span>
          </h2>
          <ul className="mt-2 mb-4 flex flex-col gap-1 text-sm text-ink-soft">
            {group.items.map((item) => (
              <li key={item.listingId} className="flex justify-between gap-4">
                <span className="min-w-0 break-words">{item.title}</span>
                <span className="shrink-0 tabular-nums">{formatPence(item.priceMinor)}</span>
              </li>
            ))}
          </ul>
          <GroupPriceLines quote={group} parcel={group.delivery} />
          <SellerTerms trader={group.trader} className="mt-4" />
        </section>
      ))}
      {dropped > 0 ? (
        <Alert tone="info">
          {plural(dropped, 'One book', `${dropped} books`)} in your basket can no longer be bought and{' '}
          {plural(dropped, 'is', 'are')} left out.
        </Alert>
      ) : null}
      <section className="flex flex-col gap-4 rounded-xl border border-line bg-paper p-5 shadow-card">
        <PromoForm quote={quote} checking={checking} onPromo={onPromo} />
        <dl className="flex justify-between gap-4 border-t border-line pt-3 text-lg font-semibold">
          <dt>{parcels > 1 ? `Total for ${parcels} parcels` : 'Total'}</dt>
          <dd className="tabular-nums" data-testid="total">
            {formatPence(quote.totalMinor)}
          </dd>
        </dl>
      </section>
      {changed ? (
        <Alert tone="info" data-testid="quote-changed">
          The price changed while you were paying
          {changedFrom !== null && changedFrom !== quote.totalMinor
            ? `: it was ${formatPence(changedFrom)}, it is now ${formatPence(quote.totalMinor)}`
            : ''}
          . Nothing was taken. Check the new price above and pay again if you are happy with it.
        </Alert>
      ) : null}
      {start.isError && !changed ? <Alert tone="error">{apiErrorMessage(start.error)}</Alert> : null}
      <AddressAndPay
        totalMinor={quote.totalMinor}
        busy={start.isPending || start.isSuccess || checking}
        opening={start.isPending || start.isSuccess}
        onPay={pay}
      />
    </>
  );
}

/** Where to send the parcels (a saved address or a new one) and the button that pays. */
function AddressAndPay({
  totalMinor,
  busy,
  opening,
  onPay,
}: {
  totalMinor: number;
  busy: boolean;
  opening: boolean;
  onPay: (address: AddressInput) => void;
}) {
  const saved = trpc.commerce.checkout.addresses.useQuery(undefined, { staleTime: 0 });
  const utils = trpc.useUtils();
  const saveAddress = trpc.commerce.checkout.saveAddress.useMutation({
    onSuccess: () => void utils.commerce.checkout.addresses.invalidate(),
  });
  const [choice, setChoice] = useState<string | null>(null);
  const [saveForNextTime, setSaveForNextTime] = useState(false);
  const form = useForm<AddressValues>({
    resolver: zodResolver(addressInputSchema),
    defaultValues: { fullName: '', line1: '', line2: '', town: '', postcode: '' },
  });
  if (saved.isPending) return <PageSkeleton />;
  const addresses = saved.data ?? [];
  const preselected = addresses.find((address) => address.isDefault)?.id ?? addresses[0]?.id ?? NEW_ADDRESS;
  const selected =
    choice && (choice === NEW_ADDRESS || addresses.some((address) => address.id === choice))
      ? choice
      : preselected;
  const submitNew = form.handleSubmit(async (values) => {
    const address = addressInputSchema.parse(values);
    if (saveForNextTime) {
      try {
        await saveAddress.mutateAsync({ address, makeDefault: addresses.length === 0 });
      } catch {
        return; // The reason is shown above the button.
      }
    }
    onPay(address);
  });
  return (
    <form
      className="flex flex-col gap-4 rounded-xl border border-line bg-paper p-5 shadow-card"
      noValidate
      aria-label="Delivery address"
      onSubmit={(event) => {
        const chosen = addresses.find((address) => address.id === selected);
        if (selected !== NEW_ADDRESS && chosen) {
          event.preventDefault();
          const { fullName, line1, line2, town, postcode } = chosen;
          onPay({ fullName, line1, line2, town, postcode });
          return;
        }
        void submitNew(event);
      }}
    >
      <h2 className="text-lg font-semibold">Delivery address (UK)</h2>
      {addresses.length ? (
        <fieldset className="flex flex-col gap-2" data-testid="saved-addresses">
          <legend className="sr-only">Where to send it</legend>
          {[
            ...addresses.map((address) => ({ id: address.id, address })),
            { id: NEW_ADDRESS, address: null },
          ].map(({ id, address }) => (
            <label
              key={id}
              className={cn(
                'flex cursor-pointer items-start gap-3 rounded-xl border p-3 text-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand',
                selected === id ? 'border-brand bg-brand-soft/40' : 'border-line',
              )}
              data-testid={address ? 'saved-address' : undefined}
            >
              <input
                type="radio"
                name="saved-address"
                className="mt-1 size-4 shrink-0 accent-brand"
                checked={selected === id}
                onChange={() => setChoice(id)}
              />
              {address ? (
                <span className="min-w-0 break-words">
                  <span className="font-semibold text-ink">{address.fullName}</span>
                  <span className="block text-ink-soft">
                    {[address.line1, address.line2, address.town, address.postcode]
                      .filter(Boolean)
                      .join(', ')}
                  </span>
                </span>
              ) : (
                <span className="font-semibold">Send it to a new address</span>
              )}
            </label>
          ))}
        </fieldset>
      ) : null}
      {selected === NEW_ADDRESS ? (
        <NewAddressFields
          form={form}
          saveForNextTime={saveForNextTime}
          onSaveForNextTime={setSaveForNextTime}
        />
      ) : null}
      {saveAddress.isError ? <Alert tone="error">{apiErrorMessage(saveAddress.error)}</Alert> : null}
      <p className="flex items-start gap-2 text-sm text-ink-soft">
        <ShieldCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-emerald-700" />
        Buyer protection: each seller is paid only when you have their parcel and are happy with it. The books
        are reserved for you for 15 minutes while you pay.
      </p>
      <Button type="submit" size="lg" variant="cta" disabled={busy} aria-busy={opening || undefined}>
        <Lock aria-hidden="true" className="size-4" />
        {opening ? 'Opening the payment page…' : orderButtonLabel(totalMinor)}
      </Button>
    </form>
  );
}
