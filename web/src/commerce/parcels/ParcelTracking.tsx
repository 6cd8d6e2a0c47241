/**
 * The parcels' tracking on both sides of an order (issue 37): each parcel's carrier scans as a
 * timeline (newest first: what happened, when, where) with a link to the carrier's own page. A
 * parcel the carrier returned lets the seller confirm it came back, which refunds the buyer.
 */
import type { OrderDetail, OrderRole, ShipmentView } from '@reshelf/contracts';
import { ExternalLink } from 'lucide-react';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { notify } from '../../components/ui/notify.ts';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { formatWhen } from '../../lib/dates.ts';
import { useConfirmReturned, useOrderParcels } from './hooks.ts';

const TITLES: Record<ShipmentView['direction'], string> = {
  outbound: 'Parcel to the buyer',
  return: 'Return parcel',
};

export function ParcelTracking({ order, role }: { order: OrderDetail; role: OrderRole }) {
  const parcels = useOrderParcels(order.id);
  const shown = (parcels.data ?? []).filter((parcel) => parcel.trackingRef !== null);
  if (shown.length === 0) return null;
  return (
    <>
      {shown.map((parcel) => (
        <section
          key={parcel.id}
          aria-labelledby={`parcel-${parcel.id}`}
          className="rounded-xl border border-line bg-paper p-5 shadow-card"
          data-testid="parcel-tracking"
          data-direction={parcel.direction}
          data-status={parcel.status}
        >
          <h2 id={`parcel-${parcel.id}`} className="text-lg font-semibold">
            {TITLES[parcel.direction]}: {parcel.statusText}
          </h2>
          <p className="mt-1 text-sm text-ink-soft">
            {parcel.carrierName} · <span className="font-mono">{parcel.trackingRef}</span>
          </p>
          {parcel.trackingUrl ? (
            <a
              href={parcel.trackingUrl}
              target="_blank"
              rel="noopener"
              className="mt-2 inline-flex items-center gap-1 text-sm font-semibold text-brand underline"
            >
              Track on {parcel.carrierName}’s site
              <ExternalLink aria-hidden="true" className="size-3.5" />
              <span className="sr-only">(opens in a new tab)</span>
            </a>
          ) : null}
          {parcel.scans.length > 0 ? (
            <ol
              className="mt-4 flex flex-col gap-3 border-l-2 border-line pl-4"
              aria-label="Tracking timeline"
            >
              {parcel.scans.map((scan) => (
                <li key={`${scan.status}-${scan.occurredAt}`} className="text-sm" data-scan={scan.status}>
                  <p className="font-semibold text-ink">{scan.text}</p>
                  <p className="text-ink-soft">
                    <time dateTime={scan.occurredAt}>{formatWhen(scan.occurredAt)}</time>
                    {scan.location ? ` · ${scan.location}` : ''}
                  </p>
                </li>
              ))}
            </ol>
          ) : (
            <p className="mt-3 text-sm text-ink-muted">No scans yet: the carrier has not seen the parcel.</p>
          )}
          {role === 'seller' &&
          parcel.direction === 'outbound' &&
          parcel.status === 'returned_to_sender' &&
          order.status === 'dispatched' ? (
            <CameBack orderId={order.id} />
          ) : null}
        </section>
      ))}
    </>
  );
}

function CameBack({ orderId }: { orderId: string }) {
  const confirm = useConfirmReturned({
    onSuccess: () => notify.success('Thanks: the buyer is refunded and the sale is closed'),
  });
  return (
    <div className="mt-4 flex flex-col gap-2 border-t border-line pt-4">
      <p className="text-sm text-ink-soft">
        The carrier is bringing it back to you. When it arrives, confirm it here: the buyer is refunded in
        full.
      </p>
      {confirm.isError ? <Alert tone="error">{apiErrorMessage(confirm.error)}</Alert> : null}
      <Button
        variant="outline"
        onClick={() => confirm.mutate({ orderId })}
        disabled={confirm.isPending}
        className="sm:w-auto sm:self-start"
      >
        It came back
      </Button>
    </div>
  );
}
