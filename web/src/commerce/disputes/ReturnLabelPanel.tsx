/**
 * "Your return label" on the buyer's side of an accepted return (issue 37, decision 0087): the
 * prepaid label back to the seller as an A4 or 4×6 inch PDF, or the QR code to show at a Post
 * Office; who pays for it ("Prepaid by the seller", or "£x comes off your refund"); a label the
 * carrier could not sell us offers "Try again". The return's tracking timeline is the parcels'
 * own (ParcelTracking), on both sides.
 */

import { formatPence } from '@reshelf/contracts';
import { RotateCcw } from 'lucide-react';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { thenRefresh } from '../../kit/index.ts';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { trpc } from '../../lib/trpc.ts';
import { useOrderParcels } from '../parcels/hooks.ts';
import { LabelDownloads } from '../parcels/LabelDownloads.tsx';

export function ReturnLabelPanel({ orderId }: { orderId: string }) {
  const parcels = useOrderParcels(orderId);
  const utils = trpc.useUtils();
  const retry = trpc.commerce.disputes.member.retryReturnLabel.useMutation(
    thenRefresh(
      {},
      () => {
        void utils.commerce.parcels.member.invalidate();
        void utils.commerce.disputes.member.invalidate();
      },
      'onSettled',
    ),
  );
  const parcel = parcels.data?.find((candidate) => candidate.direction === 'return') ?? null;
  if (!parcel) return null;
  const failure = retry.isError
    ? apiErrorMessage(retry.error)
    : parcel.status === 'label_failed'
      ? parcel.lastError
      : null;
  const payer =
    parcel.paidBy === 'seller'
      ? 'Prepaid by the seller: it costs you nothing.'
      : `${formatPence(parcel.costMinor)} comes off your refund for this label (you pay the postage back on a change of mind).`;
  return (
    <section
      aria-labelledby="return-label-title"
      className="rounded-xl border border-line bg-paper p-5 shadow-card"
      data-testid="return-label"
      data-status={parcel.status}
    >
      <h2 id="return-label-title" className="text-lg font-semibold">
        Your return label
      </h2>
      <p className="mt-1 text-sm text-ink-soft" data-testid="return-label-payer">
        {payer}
      </p>
      {parcel.labelAvailable ? (
        <div className="mt-4 flex flex-col gap-4">
          <p className="text-sm">
            A {parcel.carrierName} label ({parcel.bandLabel}) back to the seller. Tracking number{' '}
            <span className="font-mono">{parcel.trackingRef}</span>: you are refunded when the carrier
            delivers it, with nothing for you to confirm.
          </p>
          <LabelDownloads
            parcel={parcel}
            noun="return label"
            qrAlt={`QR code for the ${parcel.carrierName} return`}
            qrTitle="No printer? Show this at a Post Office."
            qrGuidance="They print the label for you. Or hand the labelled parcel in at a Post Office or a parcel postbox."
          />
        </div>
      ) : failure ? (
        <div className="mt-4 flex flex-col gap-3">
          <Alert tone="error" data-testid="return-label-error">
            {failure}
          </Alert>
          <Button
            onClick={() => retry.mutate({ shipmentId: parcel.id })}
            disabled={retry.isPending}
            className="sm:w-auto sm:self-start"
          >
            <RotateCcw aria-hidden="true" />
            {retry.isPending ? 'Buying the label…' : 'Try again'}
          </Button>
        </div>
      ) : parcel.status === 'buying' ? (
        <p className="mt-4 text-sm text-ink-soft">Buying your return label…</p>
      ) : null}
    </section>
  );
}
