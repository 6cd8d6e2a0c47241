import { normaliseIsbn } from '@reshelf/contracts';
import { Users } from 'lucide-react';
import { useSession } from '../../lib/session.ts';
import { trpc } from '../../lib/trpc.ts';

/**
 * "3 readers want this" for the edition a seller is listing (decision 0088): the readers whose
 * wants cover it, never the seller. Nothing when nobody does, or the edition is not known yet.
 */
export function DemandNote({ bookId, isbn }: { bookId?: string | null; isbn?: string | null }) {
  const session = useSession();
  const input = bookId ? { bookId } : isbn ? { isbn } : null;
  const demand = trpc.community.wants.demand.useQuery(input ?? { isbn: '' }, {
    enabled: session.status === 'signed-in' && input !== null,
    staleTime: 60_000,
  });
  if (!input || !demand.data?.words) return null;
  return (
    <p
      className="mb-4 flex items-center gap-2 rounded-lg bg-brand-soft px-3 py-2 text-sm font-medium text-ink"
      data-testid="want-demand"
    >
      <Users aria-hidden="true" className="size-4 shrink-0 text-brand" />
      {demand.data.words}
    </p>
  );
}

/**
 * The demand for each ISBN of a list (the charity bulk upload's report rows), in one request:
 * ISBN-13 → "3 readers want this", only for those somebody wants.
 */
export function useIsbnDemand(isbns: readonly (string | null)[]): Map<string, string> {
  const valid = [
    ...new Set(isbns.map((isbn) => (isbn ? normaliseIsbn(isbn) : null)).filter((isbn) => isbn !== null)),
  ]
    .sort()
    .slice(0, 200);
  const demand = trpc.community.wants.demandByIsbn.useQuery({ isbns: valid }, { enabled: valid.length > 0 });
  return new Map((demand.data ?? []).map((row) => [row.isbn13, row.words ?? '']));
}
