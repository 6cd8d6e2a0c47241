import { AlertCircle, Loader2, RotateCw } from 'lucide-react';
import { Button } from './ui/button.tsx';

type Props = {
  title?: string;
  message?: string;
  retry: () => void;
  retrying: boolean;
};

/** Shown by a guard when it could not ask the API who is signed in (offline, server down). */
export function SessionCheckFailed({
  title = "We couldn't check whether you're signed in.",
  message = 'Check your connection, then try again.',
  retry,
  retrying,
}: Props) {
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-12 sm:px-6 lg:px-8">
      <div
        role="alert"
        className="flex flex-col items-start gap-4 rounded-xl border border-destructive/25 bg-destructive/5 p-5 sm:flex-row sm:items-center sm:justify-between sm:p-6"
      >
        <div className="flex gap-3">
          <AlertCircle aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-destructive" />
          <div>
            <p className="font-semibold text-ink">{title}</p>
            <p className="mt-1 text-sm text-ink-muted">{message}</p>
          </div>
        </div>
        <Button variant="outline" onClick={retry} disabled={retrying}>
          {retrying ? (
            <Loader2 aria-hidden="true" className="motion-safe:animate-spin" />
          ) : (
            <RotateCw aria-hidden="true" />
          )}
          {retrying ? 'Trying again…' : 'Try again'}
        </Button>
      </div>
    </div>
  );
}
