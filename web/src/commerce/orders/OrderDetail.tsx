/**
 * One order, for its buyer (/account/orders/:id) or its seller (/account/sales/:id): its money,
 * address, tracking, dispute, timeline and the next steps the server allows. The order emails
 * link here.
 */
import { formatPence, type OrderDetail as Order, type OrderRole } from '@reshelf/contracts';
import { Link, Navigate, useParams } from 'react-router-dom';
import { MessageOrderButton, OrderReviewPrompt } from '../../community/index.ts';
import { NotFoundContent } from '../../components/not-found/NotFoundContent.tsx';
import { PageBody, PageHeader } from '../../components/PageHeader.tsx';
import { QueryError } from '../../components/QueryError.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { QueryView } from '../../kit/index.ts';
import { isNotFound } from '../../lib/errors.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { isRouteId } from '../../lib/route-ids.ts';
import { trpc } from '../../lib/trpc.ts';
import { HeldForYou } from '../checkout/FinishPaying.tsx';
import { DisputePanel } from '../disputes/DisputePanel.tsx';
import { ReturnLabelPanel } from '../disputes/ReturnLabelPanel.tsx';
import { ReturnRequestPanel } from '../disputes/ReturnRequestPanel.tsx';
import { SaleReturnPanel } from '../disputes/SaleReturnPanel.tsx';
import { ParcelTracking, PostItPanel } from '../parcels/index.ts';
import { BuyerActions, SellerActions } from './OrderActions.tsx';
import { OrderBooks } from './OrderBooks.tsx';
import { DeliveryAddress, OrderMoney, OrderStatusBadge, OrderTimeline, Tracking } from './OrderParts.tsx';
import { ORDER_PAGES } from './order-pages.ts';

export function OrderDetail({ party: role }: { party: OrderRole }) {
  const { orderId = '' } = useParams();
  const valid = isRouteId(orderId);
  const order = trpc.commerce.orders.member.get.useQuery(
    { orderId },
    { enabled: valid, staleTime: 0, retry: (count, error) => !isNotFound(error) && count < 1 },
  );
  usePageMeta(order.data ? `Order ${order.data.reference}` : valid ? 'Your order' : 'Page not found');
  if (!valid) return <NotFoundContent />;
  return (
    <QueryView
      query={order}
      pending={
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
      }
      error={(_message, retry) =>
        isNotFound(order.error) ? (
          <NotFoundContent />
        ) : (
          <PageBody>
            <QueryError what="this order" onRetry={retry} retrying={order.isFetching} />
          </PageBody>
        )
      }
    >
      {(detail) =>
        // A purchase opened from the sales address (or the other way round) moves to its own.
        detail.role !== role ? (
          <Navigate to={`${ORDER_PAGES[detail.role].base}/${detail.id}`} replace />
        ) : (
          <OrderDetailView detail={detail} role={role} />
        )
      }
    </QueryView>
  );
}

function OrderDetailView({ detail, role }: { detail: Order; role: OrderRole }) {
  const meta = ORDER_PAGES[role];
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
              {detail.story.nextStep}
            </p>
          </div>
        }
      >
        <div className="flex flex-wrap items-center gap-x-4">
          {detail.listingSlug && detail.itemCount === 1 ? (
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
            {role === 'seller' && detail.actions.canDispatch ? <PostItPanel order={detail} /> : null}
            {role === 'seller' ? <SellerActions order={detail} /> : <BuyerActions order={detail} />}
            {/* The review this order waits for from the member, while its window is open. */}
            <OrderReviewPrompt orderId={detail.id} completed={detail.status === 'completed'} />
            {detail.dispute ? <DisputePanel orderId={detail.id} /> : null}
            {role === 'buyer' ? <ReturnRequestPanel orderId={detail.id} /> : null}
            {role === 'buyer' ? <ReturnLabelPanel orderId={detail.id} /> : null}
            {role === 'seller' && !detail.charitySale ? <SaleReturnPanel orderId={detail.id} /> : null}
            {detail.status === 'cancelled' && detail.cancelReason ? (
              <section
                className="rounded-xl border border-line bg-paper-deep p-5 text-sm"
                data-testid="order-cancelled"
              >
                <h2 className="text-lg font-semibold">Cancelled</h2>
                <p className="mt-1 break-words text-ink-soft">{detail.cancelReason}</p>
                {detail.money.refundedMinor > 0 ? (
                  <p className="mt-1 text-ink-soft">
                    {formatPence(detail.money.refundedMinor)}{' '}
                    {role === 'buyer' ? 'was refunded to you' : 'was refunded to the buyer'}.
                  </p>
                ) : null}
              </section>
            ) : null}
            <OrderBooks order={detail} viewer={role} />
            <Tracking order={detail} />
            <ParcelTracking order={detail} role={role} />
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
