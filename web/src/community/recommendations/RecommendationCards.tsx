import { explainRecommendation, type Recommendation } from '@reshelf/contracts';
import { GRID_CLASSES, ListingCard } from '../../catalogue/index.ts';
import { cn } from '../../lib/utils.ts';

/** Why a book is recommended, with the book, author or genre it names in italics. */
export function Explanation({ item }: { item: Pick<Recommendation, 'reason' | 'because'> }) {
  const text = explainRecommendation(item.reason, item.because);
  const at = item.because ? text.indexOf(item.because) : -1;
  return (
    <p
      className="mt-2 px-1 text-sm text-ink-soft"
      data-testid="recommendation-reason"
      data-reason={item.reason}
    >
      {at < 0 || !item.because ? (
        text
      ) : (
        <>
          {text.slice(0, at)}
          <em className="font-semibold text-ink">{item.because}</em>
          {text.slice(at + item.because.length)}
        </>
      )}
    </p>
  );
}

/** Recommended books as cards, each with its explanation under it. */
export function RecommendationCards({
  items,
  testId,
  className,
}: {
  items: Recommendation[];
  testId: string;
  className?: string;
}) {
  return (
    <ul data-testid={testId} className={cn(GRID_CLASSES, className)}>
      {items.map((item) => (
        <li key={item.id} className="flex flex-col">
          <ListingCard listing={item} className="flex-1" />
          <Explanation item={item} />
        </li>
      ))}
    </ul>
  );
}
