/** The small pieces every data view shows: a loading line and a message in place of a table. */
import { LoaderCircle } from 'lucide-react';
import type { ReactNode } from 'react';

/** In place of a table while it loads: a spinner and what is coming (announced: role=status). */
export function LoadingLine({ children }: { children: ReactNode }) {
  return (
    <p role="status" className="flex items-center gap-2 text-ink-muted">
      <LoaderCircle className="size-4 animate-spin" aria-hidden="true" /> {children}
    </p>
  );
}

/** A message in place of a table: nothing matches (or, on older pages, loading failed). */
export function EmptyState({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <p
      className="rounded-xl border border-dashed border-line bg-paper p-6 text-center text-ink-muted"
      data-testid={testId}
    >
      {children}
    </p>
  );
}
