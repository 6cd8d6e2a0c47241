import { Loader2, Send } from 'lucide-react';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { trpc } from '../../lib/trpc.ts';

/**
 * Sends the confirmation link again. The API limits how often (3 per address per 15 minutes)
 * and says so: "Too many attempts. Try again in N minutes."
 */
export function ResendConfirmation({
  email,
  label = 'Resend the email',
  next = null,
}: {
  email: string;
  label?: string;
  /** Where the new link leads on to, as the first one did. */
  next?: string | null;
}) {
  const resend = trpc.account.auth.resendConfirmation.useMutation();
  return (
    <div className="flex flex-col gap-4">
      <Button
        variant="outline"
        size="lg"
        className="w-full sm:w-auto"
        disabled={resend.isPending}
        onClick={() => resend.mutate(next ? { email, next } : { email })}
      >
        {resend.isPending ? (
          <Loader2 aria-hidden="true" className="motion-safe:animate-spin" />
        ) : (
          <Send aria-hidden="true" />
        )}
        {resend.isPending ? 'Sending…' : label}
      </Button>
      {resend.isSuccess ? (
        <Alert tone="success" data-testid="resend-result">
          A new link is on its way to <strong className="font-semibold text-ink">{resend.data.email}</strong>.
          It replaces any earlier one.
        </Alert>
      ) : null}
      {resend.isError ? (
        <Alert tone="error" data-testid="resend-result">
          {apiErrorMessage(resend.error)}
        </Alert>
      ) : null}
    </div>
  );
}
