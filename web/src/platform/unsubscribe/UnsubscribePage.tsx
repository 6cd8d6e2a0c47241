import { CheckCircle2, Loader2, MailX, TriangleAlert } from 'lucide-react';
import { Link, useSearchParams } from 'react-router-dom';
import { PageHeader } from '../../components/PageHeader.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { trpc } from '../../lib/trpc.ts';

/** /unsubscribe?u=…&l=…&s=…: a signed link from an email; no sign-in needed. */
export function UnsubscribePage() {
  usePageMeta('Unsubscribe', 'Stop receiving an email list from Reshelf.');
  const [search] = useSearchParams();
  const input = { u: search.get('u') ?? '', l: search.get('l') ?? '', s: search.get('s') ?? '' };
  const complete = Boolean(input.u && input.l && input.s);
  const check = trpc.platform.unsubscribe.check.useQuery(input, { enabled: complete, retry: false });
  const confirm = trpc.platform.unsubscribe.confirm.useMutation();

  let body: React.ReactNode;
  if (!complete) {
    body = (
      <Problem text="This unsubscribe link is incomplete. Copy the whole link from the email and try again, or write to us with “Contact us” at the bottom of the page." />
    );
  } else if (check.isPending) {
    body = (
      <div role="status" aria-label="Checking the link" className="flex flex-col gap-3">
        <Skeleton className="h-6 w-3/4" />
        <Skeleton className="h-11 w-40" />
      </div>
    );
  } else if (check.isError) {
    body = (
      <Problem
        text={
          errorMessage(check.error) ?? 'We couldn’t check this link just now. Please try again in a moment.'
        }
      />
    );
  } else if (confirm.isSuccess || check.data.unsubscribed) {
    const status = confirm.data ?? check.data;
    body = (
      <div
        role="status"
        className="flex gap-3 rounded-xl border border-moss/30 bg-moss-soft p-6"
        data-testid="unsubscribed"
      >
        <CheckCircle2 aria-hidden="true" className="mt-0.5 size-6 shrink-0 text-moss" />
        <div>
          <h2 className="text-2xl font-semibold">You're unsubscribed</h2>
          <p className="mt-2 text-ink-soft">
            {status.recipient} won't get {status.listLabel} any more. We'll still email you about your orders
            and account.
          </p>
        </div>
      </div>
    );
  } else {
    body = (
      <div className="flex flex-col items-start gap-4 rounded-xl border border-line bg-paper p-6 shadow-card">
        <MailX aria-hidden="true" className="size-7 text-brand" />
        <p className="text-lg">
          Stop sending <strong>{check.data.listLabel}</strong> to {check.data.recipient}?
        </p>
        {confirm.isError ? (
          <p role="alert" className="text-sm text-destructive">
            {errorMessage(confirm.error) ?? 'That didn’t work. Please try again.'}
          </p>
        ) : null}
        <Button variant="brand" size="lg" onClick={() => confirm.mutate(input)} disabled={confirm.isPending}>
          {confirm.isPending ? <Loader2 aria-hidden="true" className="motion-safe:animate-spin" /> : null}
          Unsubscribe
        </Button>
      </div>
    );
  }

  return (
    <>
      <PageHeader title="Unsubscribe" />
      <div className="mx-auto w-full max-w-2xl px-4 py-10 sm:px-6">
        {body}
        <p className="mt-8 text-sm text-ink-muted">
          <Link to="/" className="font-semibold text-brand hover:underline">
            Back to Reshelf
          </Link>
        </p>
      </div>
    </>
  );
}

function Problem({ text }: { text: string }) {
  return (
    <div
      role="alert"
      className="flex gap-3 rounded-xl border border-destructive/25 bg-destructive/5 p-6"
      data-testid="unsubscribe-invalid"
    >
      <TriangleAlert aria-hidden="true" className="mt-0.5 size-6 shrink-0 text-destructive" />
      <p className="text-ink-soft">{text}</p>
    </div>
  );
}
