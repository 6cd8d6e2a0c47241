import { AlertCircle, Loader2, RotateCw } from 'lucide-react';
import { Button } from './ui/button.tsx';

/** "Try again" for a failed load: spins and says so while the retry runs. */
export function RetryButton({ onRetry, retrying = false }: { onRetry: () => void; retrying?: boolean }) {
  return (
    <Button variant="outline" onClick={onRetry} disabled={retrying}>
      {retrying ? (
        <Loader2 aria-hidden="true" className="motion-safe:animate-spin" />
      ) : (
        <RotateCw aria-hidden="true" />
      )}
      {retrying ? 'Trying again…' : 'Try again'}
    </Button>
  );
}

/** A failed load, said plainly, with a way to try again. */
export function QueryError({
  what,
  onRetry,
  retrying = false,
  message,
}: {
  what: string;
  onRetry?: () => void;
  retrying?: boolean;
  message?: string;
}) {
  return (
    <div
      role="alert"
      className="flex flex-col items-start gap-4 rounded-xl border border-destructive/25 bg-destructive/5 p-5 sm:flex-row sm:items-center sm:justify-between sm:p-6"
    >
      <div className="flex gap-3">
        <AlertCircle aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-destructive" />
        <div>
          <p className="font-semibold text-ink">We couldn't load {what}.</p>
          <p className="mt-1 text-sm text-ink-muted">{message ?? 'Check your connection, then try again.'}</p>
        </div>
      </div>
      {onRetry ? <RetryButton onRetry={onRetry} retrying={retrying} /> : null}
    </div>
  );
}
