/**
 * "Post it" on a paid sale (issue 37): the seller gets a prepaid label (A4 or 4×6 inch PDF, or a
 * QR code to show at the drop-off), bought once; the dispatch deadline. A carrier outage says so
 * and offers "Try again"; the sale stands.
 */

import {
  ADD_SENDER_ADDRESS,
  CARRIER_NETWORK_LABELS,
  type OrderDetail,
  type ShipmentView,
} from '@reshelf/contracts';
import { Printer } from 'lucide-react';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { formatWhen } from '../../lib/dates.ts';
import { useGetLabel, useOrderParcels } from './hooks.ts';
import { LabelDownloads } from './LabelDownloads.tsx';
import { SenderAddressForm } from './SenderAddressForm.tsx';

/** Where the parcel is handed over, by how the buyer chose to receive it. */
function dropOffGuidance(parcel: ShipmentView): string {
  const network = CARRIER_NETWORK_LABELS[parcel.network];
  if (parcel.method === 'drop_off') {
    return `Take it to any ${network} drop-off (a locker or parcel shop): the buyer collects it from ${parcel.dropOffPoint?.name ?? 'the point they chose'}.`;
  }
  return `Hand it in at a Post Office or a ${network} parcel postbox, or book a collection from your door.`;
}

export function PostItPanel({ order }: { order: OrderDetail }) {
  const parcels = useOrderParcels(order.id);
  const getLabel = useGetLabel();
  const parcel = parcels.data?.find((candidate) => candidate.direction === 'outbound') ?? null;
  const ready = parcel?.labelAvailable ?? false;
  const failure = getLabel.isError
    ? apiErrorMessage(getLabel.error)
    : parcel?.status === 'label_failed'
      ? parcel.lastError
      : null;
  const buy = () => getLabel.mutate({ orderId: order.id });
  return (
    <section
      aria-labelledby="post-it-title"
      className="rounded-xl border border-line bg-paper p-5 shadow-card"
      data-testid="post-it"
    >
      <h2 id="post-it-title" className="text-lg font-semibold">
        Post it
      </h2>
      {order.dispatchBy ? (
        <p className="mt-1 text-sm text-ink-soft" data-testid="post-by">
          Post it by <strong className="text-ink">{formatWhen(order.dispatchBy)}</strong>, or the order is
          cancelled and the buyer refunded.
        </p>
      ) : null}
      {ready && parcel ? (
        <div className="mt-4 flex flex-col gap-4">
          <p className="text-sm">
            Your prepaid {parcel.carrierName} label ({parcel.bandLabel}) is ready. Tracking number{' '}
            <span className="font-mono">{parcel.trackingRef}</span>.
          </p>
          <LabelDownloads
            parcel={parcel}
            noun="label"
            qrAlt={`QR code for ${parcel.carrierName} drop-off`}
            qrTitle={`No printer? Show this at ${parcel.carrierName} drop-off.`}
            qrGuidance={dropOffGuidance(parcel)}
          />
        </div>
      ) : (
        <div className="mt-4 flex flex-col gap-3">
          <p className="text-sm text-ink-soft">
            Get a prepaid label: the buyer’s postage pays for it, and the order is marked as dispatched when
            the carrier scans the parcel.
          </p>
          {failure ? (
            <Alert tone="error" data-testid="label-error">
              {failure}
            </Alert>
          ) : null}
          {failure === ADD_SENDER_ADDRESS ? (
            <SenderAddressForm onSaved={buy} />
          ) : (
            <Button
              onClick={buy}
              disabled={getLabel.isPending || parcels.isPending}
              className="sm:w-auto sm:self-start"
            >
              <Printer aria-hidden="true" />
              {getLabel.isPending ? 'Buying the label…' : failure ? 'Try again' : 'Get label'}
            </Button>
          )}
        </div>
      )}
    </section>
  );
}
