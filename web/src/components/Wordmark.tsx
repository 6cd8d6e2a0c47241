import { PRODUCT } from '@reshelf/contracts';
import { Link } from 'react-router-dom';
import { cn } from '../lib/utils.ts';

/** Three book spines: the Reshelf mark. Decorative; the wordmark's text names the link. */
export function ReshelfMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" aria-hidden="true" focusable="false" className={cn('size-8', className)}>
      <rect width="32" height="32" rx="7" className="fill-brand" />
      <rect x="7" y="8" width="5" height="17" rx="1" className="fill-paper" />
      <rect x="13.5" y="6" width="5" height="19" rx="1" className="fill-accent" />
      <rect
        x="20"
        y="10.5"
        width="5"
        height="15"
        rx="1"
        className="fill-paper"
        transform="rotate(-8 22.5 18)"
      />
    </svg>
  );
}

type WordmarkProps = {
  className?: string;
  /** On a dark background (the footer). */
  inverted?: boolean;
  /** Load the home page afresh rather than navigating in the app (used by the error page). */
  reloadDocument?: boolean;
};

export function Wordmark({ className, inverted = false, reloadDocument = false }: WordmarkProps) {
  return (
    <Link
      to="/"
      reloadDocument={reloadDocument}
      aria-label={`${PRODUCT.name}, home`}
      className={cn(
        'inline-flex items-center gap-2 rounded-md font-serif text-2xl font-bold tracking-tight',
        inverted ? 'text-paper' : 'text-ink',
        className,
      )}
    >
      <ReshelfMark />
      <span>{PRODUCT.name}</span>
    </Link>
  );
}
