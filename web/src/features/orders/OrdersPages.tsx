/**
 * The buyer's purchases (/account/orders) and the seller's sales (/account/sales): open and
 * completed lists, and one order with its money, address, tracking, dispute, timeline and the
 * next steps the server allows. The order emails link to the detail pages.
 */
import { formatPence, type OrderRole, type OrderSummary, photoThumbUrl } from '@reshelf/contracts';
import { PackageOpen } from 'lucide-react';
import { Link, Navigate, useParams, useSearchParams } from 'react-router-dom';
import { LinkTabs } from '../../components/LinkTabs.tsx';
import { PageBody, PageHeader } from '../../components/PageHeader.tsx';
import { QueryError } from '../../components/QueryError.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { isNotFound } from '../../lib/errors.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { isRouteId } from '../../lib/route-ids.ts';
import { trpc } from '../../lib/trpc.ts';
import { BookCover } from '../catalogue/BookCover.tsx';
import { ReturnRequestPanel } from '../charity/ReturnRequestPanel.tsx';
import { FinishPayingButton, HeldForYou } from '../checkout/FinishPaying.tsx';
import { MessageOrderButton } from '../messages/MessageButtons.tsx';
import { NotFoundContent } from '../not-found/NotFoundContent.tsx';
import { formatDay } from './format.ts';
import { BuyerActions, SellerActions } from './OrderActions.tsx';
import {
  DeliveryAddress,
  DisputeInfo,
  OrderMoney,
  OrderStatusBadge,
  OrderTimeline,
  Tracking,
} from './OrderParts.tsx';

const ROLE = {
  buyer: {
    base: '/account/orders',
    title: 'Your orders',
    description: 'Books you’ve bought: where each one is, and what to do when it arrives.',
    crumb: 'Your orders',
  },
  seller: {
    base: '/account/sales',
    title: 'Your sales',
    description: 'Books you’ve sold: who to send them to, and when you’re paid.',
    crumb: 'Your sales',
  },
} as const;

type ListStatus = 'open' | 'done';

function OrderList({ party: role }: { party: OrderRole }) {
  const meta = ROLE[role];
  usePageMeta(meta.title);
  const [params] = useSearchParams();
  const status: ListStatus = params.get('status') === 'done' ? 'done' : 'open';
  const list = trpc.orders.member.list.useQuery({ role, status }, { staleTime: 0 });
  return (
    <div>
      <PageHeader
        title={meta.title}
        description={meta.description}
        crumbs={[{ to: '/account', label: 'Your account' }]}
      >
        {role === 'seller' ? (
          <Link to="/account/payouts" className="mt-4 inline-block font-semibold text-brand underline">
            Your payouts
          </Link>
        ) : null}
      </PageHeader>
      <PageBody>
        <div className="max-w-3xl">
          <LinkTabs
            label={meta.title}
            testId="order-tabs"
            tabs={[
              { to: meta.base, label: 'Open', current: status === 'open' },
              { to: `${meta.base}?status=done`, label: 'Completed', current: status === 'done' },
            ]}
          />
          <div className="mt-4">
            {list.isPending ? (
              <div
                role="status"
                aria-busy="true"
                aria-label={`Loading ${meta.title.toLowerCase()}`}
                className="flex flex-col gap-3"
              >
                {[0, 1, 2].map((key) => (
                  <Skeleton key={key} className="h-24 w-full rounded-xl" />
                ))}
              </div>
            ) : list.isError ? (
              <QueryError
                what={meta.title.toLowerCase()}
                onRetry={() => list.refetch()}
                retrying={list.isFetching}
              />
            ) : list.data.length === 0 ? (
              <div className="flex flex-col items-start gap-4 rounded-xl border border-dashed border-line p-6 text-ink-muted">
                <PackageOpen aria-hidden="true" className="size-6 text-brand" />
                <p>
                  {status === 'open'
                    ? role === 'buyer'
                      ? 'Nothing on its way to you right now.'
                      : 'No sales waiting for you to send or settle.'
                    : role === 'buyer'
                      ? 'No completed orders yet.'
                      : 'No completed sales yet.'}
                </p>
                <Button asChild variant="brand">
                  {role === 'buyer' ? (
                    <Link to="/listings">Browse books</Link>
                  ) : (
                    <Link to="/sell/new">List a book</Link>
                  )}
                </Button>
              </div>
            ) : (
              <ul className="flex flex-col gap-3" data-testid="orders">
                {list.data.map((order) => (
                  <OrderRow key={order.id} order={order} base={meta.base} />
                ))}
              </ul>
            )}
          </div>
        </div>
      </PageBody>
    </div>
  );
}

function OrderRow({ order, base }: { order: OrderSummary; base: string }) {
  return (
    <li
      data-testid="order-row"
      data-status={order.status}
      className="rounded-xl border border-line bg-paper shadow-card transition-colors has-[a:hover]:border-ink/25"
    >
      <Link to={`${base}/${order.id}`} className="flex gap-4 rounded-xl p-4">
        <div className="w-14 shrink-0">
          <BookCover
            size="thumb"
            title={order.title}
            authors={[]}
            coverUrl={order.imageUrl ? photoThumbUrl(order.imageUrl) : null}
          />
        </div>
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-start justify-between gap-2">
            <p className="min-w-0 font-semibold break-words text-ink">{order.title}</p>
            <OrderStatusBadge status={order.status} />
          </div>
          <p className="mt-0.5 text-sm text-ink-muted">
            {order.reference} · {order.role === 'buyer' ? 'from' : 'to'} {order.counterpartName} ·{' '}
            {order.role === 'buyer'
              ? formatPence(order.totalMinor)
              : `sold for ${formatPence(order.itemMinor)}`}
          </p>
          <p className="mt-1 text-sm font-medium text-ink-soft" data-testid="order-next-step">
            {order.nextStep}
          </p>
          <p className="mt-1 text-xs text-ink-muted">
            {order.paidAt ? `Ordered ${formatDay(order.paidAt)}` : `Started ${formatDay(order.createdAt)}`}
          </p>
        </div>
      </Link>
      {order.canFinishPaying ? (
        // Outside the link: a button cannot sit inside one.
        <div className="border-t border-line px-4 py-3 sm:pl-22">
          <FinishPayingButton orderId={order.id} size="default" className="sm:items-start" />
        </div>
      ) : null}
    </li>
  );
}

function OrderDetailPage({ party: role }: { party: OrderRole }) {
  const meta = ROLE[role];
  const { orderId = '' } = useParams();
  const valid = isRouteId(orderId);
  const order = trpc.orders.member.get.useQuery(
    { orderId },
    { enabled: valid, staleTime: 0, retry: (count, error) => !isNotFound(error) && count < 1 },
  );
  usePageMeta(order.data ? `Order ${order.data.reference}` : valid ? 'Your order' : 'Page not found');
  if (!valid) return <NotFoundContent />;
  if (order.isPending) {
    return (
      <PageBody>
        <div
          role="status"
          aria-busy="true"
          aria-label="Loading the order"
          className="flex max-w-4xl flex-col gap-4"
        >
          <Skeleton className="h-10 w-2/3" />
          <Skeleton className="h-40 w-full rounded-xl" />
          <Skeleton className="h-64 w-full rounded-xl" />
        </div>
      </PageBody>
    );
  }
  if (order.isError) {
    if (isNotFound(order.error)) return <NotFoundContent />;
    return (
      <PageBody>
        <QueryError what="this order" onRetry={() => order.refetch()} retrying={order.isFetching} />
      </PageBody>
    );
  }
  const detail = order.data;
  // A purchase opened from the sales address (or the other way round) moves to its own.
  if (detail.role !== role) return <Navigate to={`${ROLE[detail.role].base}/${detail.id}`} replace />;
  return (
    <div data-testid="order-detail" data-status={detail.status}>
      <PageHeader
        title={detail.title}
        crumbs={[
          { to: '/account', label: 'Your account' },
          { to: meta.base, label: meta.crumb },
        ]}
        description={
          <div className="flex flex-col gap-2 text-base">
            <p className="flex flex-wrap items-center gap-2">
              <span>
                Order <strong className="text-ink">{detail.reference}</strong> ·{' '}
                {role === 'buyer' ? 'from' : 'to'} {detail.counterpartName}
              </span>
              <OrderStatusBadge status={detail.status} />
            </p>
            <p className="font-medium text-ink-soft" data-testid="order-next-step">
              {detail.nextStep}
            </p>
          </div>
        }
      >
        <div className="flex flex-wrap items-center gap-x-4">
          {detail.listingSlug ? (
            <Link
              to={`/listing/${detail.listingSlug}`}
              className="mt-3 inline-block text-sm font-semibold text-brand underline"
            >
              View the listing
            </Link>
          ) : null}
          <MessageOrderButton orderId={detail.id} role={role} />
        </div>
      </PageHeader>
      <PageBody>
        <div className="grid max-w-5xl gap-4 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
          <div className="flex min-w-0 flex-col gap-4">
            {role === 'buyer' && detail.canFinishPaying && detail.reservedUntil ? (
              <HeldForYou orderId={detail.id} reservedUntil={detail.reservedUntil} />
            ) : null}
            {role === 'seller' ? <SellerActions order={detail} /> : <BuyerActions order={detail} />}
            <DisputeInfo order={detail} />
            {role === 'buyer' && detail.charitySale ? <ReturnRequestPanel orderId={detail.id} /> : null}
            {detail.status === 'cancelled' && detail.cancelReason ? (
              <section
                className="rounded-xl border border-line bg-paper-deep p-5 text-sm"
                data-testid="order-cancelled"
              >
                <h2 className="text-lg font-semibold">Cancelled</h2>
                <p className="mt-1 break-words text-ink-soft">{detail.cancelReason}</p>
                {detail.refundedMinor > 0 ? (
                  <p className="mt-1 text-ink-soft">
                    {formatPence(detail.refundedMinor)}{' '}
                    {role === 'buyer' ? 'was refunded to you' : 'was refunded to the buyer'}.
                  </p>
                ) : null}
              </section>
            ) : null}
            <Tracking order={detail} />
            <OrderTimeline order={detail} viewer={role} />
          </div>
          <div className="flex min-w-0 flex-col gap-4">
            <OrderMoney order={detail} viewer={role} />
            <DeliveryAddress order={detail} viewer={role} />
          </div>
        </div>
      </PageBody>
    </div>
  );
}

export function PurchasesPage() {
  return <OrderList party="buyer" />;
}

export function SalesPage() {
  return <OrderList party="seller" />;
}

export function PurchaseDetailPage() {
  return <OrderDetailPage party="buyer" />;
}

export function SaleDetailPage() {
  return <OrderDetailPage party="seller" />;
}
