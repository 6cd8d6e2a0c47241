import {
  conditionWithBookman,
  copyAttributesOf,
  DUST_JACKET_LABELS,
  type ListingDetail,
  shownBookmanGrade,
} from '@reshelf/contracts';

/** Whether a copy has anything a collector would ask about (else the block is not shown). */
export function hasCollectorDetails(listing: ListingDetail): boolean {
  return (
    copyAttributesOf(listing).length > 0 || listing.dustJacket !== null || shownBookmanGrade(listing) !== null
  );
}

/**
 * The listing page's "Collector's details" (decision 0082): the everyday grade with the Bookman
 * grade of a collectable copy, each attribute the seller stated, and the dust jacket's own grade.
 */
export function CollectorDetails({ listing }: { listing: ListingDetail }) {
  if (!hasCollectorDetails(listing)) return null;
  const attributes = copyAttributesOf(listing);
  const rows: [string, string][] = [
    ['Condition', conditionWithBookman(listing)],
    ...(attributes.length ? [['This copy', attributes.join(', ')] as [string, string]] : []),
    ...(listing.dustJacket
      ? [['Dust jacket', DUST_JACKET_LABELS[listing.dustJacket]] as [string, string]]
      : []),
  ];
  return (
    <section aria-labelledby="collector-details" className="mt-8" data-testid="collector-details">
      <h2 id="collector-details" className="text-xl font-semibold">
        Collector’s details
      </h2>
      <dl className="mt-3 grid grid-cols-[auto_minmax(0,1fr)] gap-x-6 gap-y-1.5 text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-ink-muted">{label}</dt>
            <dd className="break-words text-ink">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
