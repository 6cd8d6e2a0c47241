/**
 * The pieces of an order shared by the buyer's, the seller's and staff's views: the status
 * pill, the money, the delivery address, tracking, the dispute and the timeline.
 */
import { formatPence, type OrderDetail, orderDeliveryWords, trackingUrlFor } from '@reshelf/contracts';
import type { ReactNode } from 'react';
import { formatWhen } from '../../lib/dates.ts';
import { cn } from '../../lib/utils.ts';
import { PriceLines } from '../checkout/PriceLines.tsx';
import { actorLabel, orderStatusLabel, orderStatusTone } from './format.ts';

export type OrderViewer = 'buyer' | 'seller' | 'staff';

export function OrderStatusBadge({ status }: { status: string }) {
  return (
    <span
      className={cn(
        'inline-block shrink-0 rounded-full px-2.5 py-0.5 text-xs font-semibold',
        orderStatusTone(status),
      )}
      data-testid="order-status-badge"
    >
      {orderStatusLabel(status)}
    </span>
  );
}

export function Panel({
  title,
  children,
  testId,
  className,
}: {
  title: string;
  children: ReactNode;
  testId?: string;
  className?: string;
}) {
  return (
    <section
      aria-label={title}
      className={cn('rounded-xl border border-line bg-paper p-5 shadow-card', className)}
      data-testid={testId}
    >
      <h2 className="text-lg font-semibold">{title}</h2>
      <div className="mt-3">{children}</div>
    </section>
  );
}

/**
 * The buyer (and staff) see what was paid; the seller sees what they receive. Every figure is the
 * server's (the money definitions, decision 0051), and so is every line about the earnings.
 */
export function OrderMoney({ order, viewer }: { order: OrderDetail; viewer: OrderViewer }) {
  const { money } = order;
  if (viewer === 'seller' && order.sellerMoney) {
    const earned = order.sellerMoney;
    return (
      <Panel title="Your money" testId="order-money">
        <dl className="flex flex-col gap-2 text-sm">
          <div className="flex justify-between gap-4">
            <dt>
              {money.books > 1 ? `Books (${money.books})` : 'Item'}
              {order.offerId ? ' (at the accepted offer)' : ''}
            </dt>
            <dd className="tabular-nums">{formatPence(money.itemsMinor)}</dd>
          </div>
          {money.bundleDiscountMinor > 0 ? (
            <div className="flex justify-between gap-4">
              <dt>Your bundle discount</dt>
              <dd className="tabular-nums">−{formatPence(money.bundleDiscountMinor)}</dd>
            </div>
          ) : null}
          <div className="flex justify-between gap-4">
            <dt>{earned.labelMinor > 0 ? 'Postage, paid by the buyer' : 'Postage, for you to send it'}</dt>
            <dd className="tabular-nums">{formatPence(money.postageMinor)}</dd>
          </div>
          {earned.labelMinor > 0 ? (
            <div className="flex justify-between gap-4">
              <dt>Postage label bought through Reshelf</dt>
              <dd className="whitespace-nowrap tabular-nums" data-testid="label-cost">
                −{formatPence(earned.labelMinor)}
              </dd>
            </div>
          ) : null}
          {earned.takenBackMinor > 0 && earned.netMinor > 0 ? (
            <div className="flex justify-between gap-4">
              <dt>Refunded to the buyer by Reshelf</dt>
              <dd className="tabular-nums" data-testid="payout-reversed">
                −{formatPence(earned.takenBackMinor)}
              </dd>
            </div>
          ) : null}
          <div className="mt-2 flex justify-between gap-4 border-t border-line pt-3 text-base font-semibold">
            <dt>You receive</dt>
            <dd className="tabular-nums" data-testid="payout-amount">
              {formatPence(earned.netMinor)}
            </dd>
          </div>
        </dl>
        {order.story.earnings ? (
          <p
            className="mt-3 text-sm text-ink-muted"
            data-testid="payout-status"
            data-state={order.story.earnings.state}
          >
            {order.story.earnings.text}
          </p>
        ) : null}
      </Panel>
    );
  }
  return (
    <Panel title={viewer === 'buyer' ? 'What you paid' : 'What the buyer paid'} testId="order-money">
      <PriceLines
        quote={{
          itemMinor: money.itemsMinor,
          postageMinor: money.postageMinor,
          protectionMinor: money.protectionMinor,
          protectionVatMinor: money.protectionVatMinor,
          discountMinor: money.discountMinor,
          discountCode: order.discountCode,
          totalMinor: money.totalMinor,
          parcel: order.delivery?.band ? { band: order.delivery.band, method: order.delivery.method } : null,
          bundleDiscountMinor: money.bundleDiscountMinor,
          bookCount: money.books,
        }}
        itemLabel={
          money.books > 1
            ? `Books (${money.books})${order.offerId ? ' at the accepted offer' : ''}`
            : order.offerId
              ? 'Item at the accepted offer'
              : 'Item'
        }
        refundedMinor={money.refundedMinor}
        refundedLabel={viewer === 'buyer' ? 'Refunded to you' : 'Refunded to the buyer'}
      />
      {viewer === 'staff' && order.sellerMoney && order.story.earnings ? (
        <p className="mt-3 text-sm text-ink-muted" data-testid="payout-status">
          The seller receives {formatPence(order.sellerMoney.netMinor)}: {order.story.earnings.text}
        </p>
      ) : null}
    </Panel>
  );
}

/** How the buyer chose to receive it: the method, the locker or parcel shop, the expected date. */
function DeliveryChoiceLines({ delivery }: { delivery: NonNullable<OrderDetail['delivery']> }) {
  const words = orderDeliveryWords(delivery);
  return (
    <div className="mb-3 text-sm text-ink-soft" data-testid="order-delivery" data-method={delivery.method}>
      <p className="font-semibold text-ink" data-testid="order-delivery-method">
        {words.method}
      </p>
      {words.point ? <p data-testid="order-delivery-point">{words.point}</p> : null}
      {words.expected ? <p data-testid="order-delivery-expected">{words.expected}</p> : null}
    </div>
  );
}

export function DeliveryAddress({ order, viewer }: { order: OrderDetail; viewer: OrderViewer }) {
  const address = order.address;
  return (
    <Panel title={viewer === 'seller' ? 'Post it to' : 'Delivery address'} testId="order-address">
      {order.delivery ? <DeliveryChoiceLines delivery={order.delivery} /> : null}
      {address ? (
        <address className="text-sm not-italic break-words text-ink-soft">
          <span className="font-semibold text-ink">{address.fullName}</span>
          <br />
          {address.line1}
          {address.line2 ? (
            <>
              <br />
              {address.line2}
            </>
          ) : null}
          <br />
          {address.town}
          <br />
          {address.postcode}
        </address>
      ) : (
        <p className="text-sm text-ink-muted">No address on record.</p>
      )}
    </Panel>
  );
}

export function Tracking({ order }: { order: OrderDetail }) {
  if (!order.trackingRef) return null;
  // A typed reference of a known carrier links to the carrier's own tracking page.
  const trackingUrl = trackingUrlFor(order.carrier, order.trackingRef);
  return (
    <Panel title="Tracking" testId="order-tracking">
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1.5 text-sm">
        <dt className="text-ink-muted">Carrier</dt>
        <dd className="break-words">{order.carrierLabel ?? order.carrier}</dd>
        <dt className="text-ink-muted">Reference</dt>
        <dd className="font-mono break-all" data-testid="tracking-ref">
          {trackingUrl ? (
            <a
              href={trackingUrl}
              target="_blank"
              rel="noopener"
              aria-label={`${order.trackingRef}: track it on ${order.carrierLabel ?? 'the carrier'}’s site (opens in a new tab)`}
              className="text-brand underline"
            >
              {order.trackingRef}
            </a>
          ) : (
            order.trackingRef
          )}
        </dd>
        {order.dispatchedAt ? (
          <>
            <dt className="text-ink-muted">Sent</dt>
            <dd>{formatWhen(order.dispatchedAt)}</dd>
          </>
        ) : null}
        {order.deliveredAt ? (
          <>
            <dt className="text-ink-muted">Delivered</dt>
            <dd>{formatWhen(order.deliveredAt)}</dd>
          </>
        ) : order.deliveryDueAt ? (
          <>
            <dt className="text-ink-muted">Due by</dt>
            <dd>{formatWhen(order.deliveryDueAt)}</dd>
          </>
        ) : null}
      </dl>
    </Panel>
  );
}

export function OrderTimeline({ order, viewer }: { order: OrderDetail; viewer: OrderViewer }) {
  return (
    <Panel title="Timeline" testId="order-timeline">
      <ol className="flex flex-col gap-3 border-l-2 border-line pl-4 text-sm">
        {order.events.map((event, index) => (
          <li
            // Events never reorder or change once written.
            // biome-ignore lint/suspicious/noArrayIndexKey: the timeline is append-only.
            key={index}
            className="relative"
            data-testid="timeline-event"
          >
            <span
              aria-hidden="true"
              className="absolute top-1.5 -left-[1.3rem] size-2.5 rounded-full border-2 border-paper bg-brand"
            />
            <p className="font-semibold text-ink">{orderStatusLabel(event.toStatus)}</p>
            <p className="text-ink-muted">
              {actorLabel(event.actorKind, viewer, event.toStatus)} ·{' '}
              <time dateTime={event.createdAt}>{formatWhen(event.createdAt)}</time>
            </p>
            {event.note ? <p className="mt-0.5 break-words text-ink-soft">{event.note}</p> : null}
          </li>
        ))}
      </ol>
    </Panel>
  );
}
