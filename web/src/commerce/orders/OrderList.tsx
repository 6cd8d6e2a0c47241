/**
 * The buyer's purchases (/account/orders) and the seller's sales (/account/sales): open and
 * past lists (?status=done: completed, cancelled or refunded), each order leading to its detail page.
 */
import { formatPence, type OrderRole, type OrderSummary, photoThumbUrl } from '@reshelf/contracts';
import { PackageOpen } from 'lucide-react';
import { Link } from 'react-router-dom';
import { z } from 'zod';
import { BookCover } from '../../components/BookCover.tsx';
import { LinkTabs } from '../../components/LinkTabs.tsx';
import { PageBody, PageHeader } from '../../components/PageHeader.tsx';
import { RowsSkeleton } from '../../components/placeholders.tsx';
import { QueryError } from '../../components/QueryError.tsx';
import { Button } from '../../components/ui/button.tsx';
import { QueryView, useFilterParams } from '../../kit/index.ts';
import { formatDay } from '../../lib/dates.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { trpc } from '../../lib/trpc.ts';
import { FinishPayingButton } from '../checkout/FinishPaying.tsx';
import { ReturnsSetting } from '../disputes/ReturnsSetting.tsx';
import { OrderStatusBadge } from './OrderParts.tsx';
import { ORDER_PAGES } from './order-pages.ts';

/** ?status=done shows the past orders (completed, cancelled, refunded); anything else the open ones. */
const filters = z.object({ status: z.enum(['open', 'done']).default('open') });

export function OrderList({ party: role }: { party: OrderRole }) {
  const meta = ORDER_PAGES[role];
  usePageMeta(meta.title);
  const { status } = useFilterParams(filters).values;
  const list = trpc.commerce.orders.member.list.useQuery({ role, status }, { staleTime: 0 });
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
        {role === 'seller' ? <ReturnsSetting /> : null}
      </PageHeader>
      <PageBody>
        <div className="max-w-3xl">
          <LinkTabs
            label={meta.title}
            testId="order-tabs"
            tabs={[
              { to: meta.base, label: 'Open', current: status === 'open' },
              { to: `${meta.base}?status=done`, label: 'Past', current: status === 'done' },
            ]}
          />
          <div className="mt-4">
            <QueryView
              query={list}
              pending={
                <RowsSkeleton
                  label={`Loading ${meta.title.toLowerCase()}`}
                  rows={Array(3).fill('h-24 w-full rounded-xl')}
                />
              }
              error={(_message, retry) => (
                <QueryError what={meta.title.toLowerCase()} onRetry={retry} retrying={list.isFetching} />
              )}
              empty={
                <div className="flex flex-col items-start gap-4 rounded-xl border border-dashed border-line p-6 text-ink-muted">
                  <PackageOpen aria-hidden="true" className="size-6 text-brand" />
                  <p>
                    {status === 'open'
                      ? role === 'buyer'
                        ? 'Nothing on its way to you right now.'
                        : 'No sales waiting for you to send or settle.'
                      : role === 'buyer'
                        ? 'No past orders yet.'
                        : 'No past sales yet.'}
                  </p>
                  <Button asChild variant="brand">
                    {role === 'buyer' ? (
                      <Link to="/listings">Browse books</Link>
                    ) : (
                      <Link to="/sell/new">List a book</Link>
                    )}
                  </Button>
                </div>
              }
            >
              {(orders) => (
                <ul className="flex flex-col gap-3" data-testid="orders">
                  {orders.map((order) => (
                    <OrderRow key={order.id} order={order} base={meta.base} />
                  ))}
                </ul>
              )}
            </QueryView>
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
            {order.role === 'buyer' || !order.sellerMoney
              ? formatPence(order.money.totalMinor)
              : `you receive ${formatPence(order.sellerMoney.netMinor)}`}
          </p>
          <p className="mt-1 text-sm font-medium text-ink-soft" data-testid="order-next-step">
            {order.story.nextStep}
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
