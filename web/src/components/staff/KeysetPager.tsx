/**
 * Newest-first logs read a page at a time by keyset (the server answers `nextBefore`): the
 * pages walked so far, and the "Newer …" / "Older …" buttons.
 */
import { useState } from 'react';
import { Button } from '../ui/button.tsx';

export interface KeysetPages {
  /** Where the page shown starts (undefined: the newest). */
  before: string | undefined;
  /** Back to the newest page (when the filter changes). */
  reset: () => void;
  newer: (() => void) | null;
  older: (nextBefore: string) => void;
}

export function useKeysetPages(): KeysetPages {
  const [pages, setPages] = useState<string[]>([]);
  return {
    before: pages.at(-1),
    reset: () => setPages([]),
    newer: pages.length > 0 ? () => setPages((current) => current.slice(0, -1)) : null,
    older: (nextBefore) => setPages((current) => [...current, nextBefore]),
  };
}

export function KeysetPager({
  pages,
  nextBefore,
  noun,
}: {
  pages: KeysetPages;
  nextBefore: string | null | undefined;
  /** What the rows are, plural: "runs", "entries", "requests". */
  noun: string;
}) {
  return (
    <div className="flex gap-2">
      {pages.newer ? (
        <Button variant="outline" onClick={pages.newer}>
          Newer {noun}
        </Button>
      ) : null}
      {nextBefore ? (
        <Button variant="outline" onClick={() => pages.older(nextBefore)}>
          Older {noun}
        </Button>
      ) : null}
    </div>
  );
}
