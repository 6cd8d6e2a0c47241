/**
 * A bought label's downloads (issue 37): A4 and 4×6 inch PDFs and the printer-free QR code, for
 * the seller's outbound label and the buyer's return label alike.
 */
import { labelPath, type ShipmentView } from '@reshelf/contracts';
import { Download, Printer } from 'lucide-react';
import type { ReactNode } from 'react';

export function LabelDownloads({
  parcel,
  noun,
  qrAlt,
  qrTitle,
  qrGuidance,
}: {
  parcel: Pick<ShipmentView, 'id'>;
  /** "label" or "return label": the links read "Download A4 <noun> (PDF)". */
  noun: string;
  qrAlt: string;
  qrTitle: string;
  qrGuidance: ReactNode;
}) {
  return (
    <>
      <ul className="flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:gap-4">
        <li>
          <a
            href={labelPath(parcel.id, 'a4')}
            download
            className="inline-flex items-center gap-2 font-semibold text-brand underline"
          >
            <Download aria-hidden="true" className="size-4" />
            Download A4 {noun} (PDF)
          </a>
        </li>
        <li>
          <a
            href={labelPath(parcel.id, 'thermal_4x6')}
            download
            className="inline-flex items-center gap-2 font-semibold text-brand underline"
          >
            <Printer aria-hidden="true" className="size-4" />
            Download 4×6 inch {noun} (PDF)
          </a>
        </li>
      </ul>
      <figure className="flex flex-col items-start gap-2 sm:flex-row sm:items-center sm:gap-4">
        <img
          src={labelPath(parcel.id, 'qr')}
          alt={qrAlt}
          width={128}
          height={128}
          className="size-32 rounded border border-line bg-white p-1"
        />
        <figcaption className="text-sm text-ink-soft">
          <strong className="block text-ink">{qrTitle}</strong>
          {qrGuidance}
        </figcaption>
      </figure>
    </>
  );
}
