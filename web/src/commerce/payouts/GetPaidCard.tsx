/**
 * "Get paid" on /account/payouts: the seller's payout account at the payment
 * provider (set up on the provider's hosted page: Reshelf never sees bank details), its state,
 * what is due, and why released earnings wait if they do.
 */
import { CONNECTED_ACCOUNT_STATE_LABELS, formatPence, type PayoutAccount } from '@reshelf/contracts';
import { Landmark } from 'lucide-react';
import { Button } from '../../components/ui/button.tsx';
import { trpc } from '../../lib/trpc.ts';
import { cn } from '../../lib/utils.ts';

const TONE: Record<PayoutAccount['state'], string> = {
  not_started: 'bg-paper-deep text-ink-muted',
  pending: 'bg-accent/25 text-accent-foreground',
  needs_information: 'bg-accent/25 text-accent-foreground',
  active: 'bg-moss-soft text-moss',
  restricted: 'bg-destructive/10 text-destructive',
  rejected: 'bg-destructive/10 text-destructive',
};

const SAYS: Record<PayoutAccount['state'], string> = {
  not_started:
    'To be paid for your sales, set up payouts with our payment provider. It takes a few minutes; your bank details go to them, never to Reshelf.',
  pending: 'You started setting up payouts. Finish it with our payment provider so we can pay you.',
  needs_information: 'Our payment provider needs more information before we can pay you:',
  active:
    'Payouts are set up. When a buyer confirms their book arrived, we send you the money automatically.',
  restricted: 'Our payment provider has paused payouts to you. Update your details with them to start again.',
  rejected:
    'Our payment provider could not accept your account, so we cannot pay you through it. Contact us and we will help.',
};

const ACTION: Partial<Record<PayoutAccount['state'], string>> = {
  not_started: 'Set up payouts',
  pending: 'Continue setting up payouts',
  needs_information: 'Give the missing information',
  restricted: 'Update your payout details',
};

const WAITING: Record<NonNullable<PayoutAccount['waitingReason']>, string> = {
  no_account: 'waits until you set up payouts',
  account_not_active: 'waits until your payout account is active',
  held: 'is on hold',
};

export function GetPaidCard({ account }: { account: PayoutAccount }) {
  const start = trpc.commerce.payouts.member.startOnboarding.useMutation({
    onSuccess: ({ url }) => window.location.assign(url),
  });
  const action = ACTION[account.state];
  return (
    <section
      aria-labelledby="get-paid-title"
      className="rounded-xl border border-line bg-paper p-5 shadow-card"
      data-testid="payout-account"
      data-state={account.state}
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex items-center gap-3">
          <Landmark aria-hidden="true" className="size-6 text-brand" />
          <h2 id="get-paid-title" className="text-xl font-semibold">
            Get paid
          </h2>
        </div>
        <span
          className={cn('rounded-full px-2.5 py-0.5 text-xs font-semibold', TONE[account.state])}
          data-testid="payout-account-state"
        >
          {CONNECTED_ACCOUNT_STATE_LABELS[account.state]}
        </span>
      </div>
      <p className="mt-3 text-ink">{SAYS[account.state]}</p>
      {account.due.length > 0 && (
        <ul className="mt-2 list-disc pl-6 text-sm text-ink" data-testid="payout-account-due">
          {account.due.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
      )}
      {account.disabledReason && (
        <p className="mt-2 text-sm text-ink-muted">The provider says: {account.disabledReason}</p>
      )}
      {account.waitingMinor > 0 && account.waitingReason && (
        <p
          className="mt-3 rounded-lg bg-accent/15 px-3 py-2 text-sm text-ink"
          data-testid="payout-waiting"
          role="status"
        >
          {formatPence(account.waitingMinor)} of released earnings {WAITING[account.waitingReason]}.
        </p>
      )}
      {account.holds.length > 0 && (
        <ul className="mt-3 flex flex-col gap-1 text-sm" data-testid="payout-holds">
          {account.holds.map((hold) => (
            <li key={`${hold.kind}-${hold.since}`}>
              <strong>Payouts on hold:</strong> {hold.reason}
              {hold.kind === 'reporting' ? (
                <>
                  {' '}
                  <a className="font-semibold text-brand underline" href="#tax-details">
                    Give your details
                  </a>
                </>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {account.balanceMinor > 0 && (
        <p className="mt-3 text-sm text-ink-muted">
          In your payout account, not yet paid to your bank: {formatPence(account.balanceMinor)}
        </p>
      )}
      {account.owedMinor > 0 && (
        <p
          className="mt-3 rounded-lg bg-accent/15 px-3 py-2 text-sm text-ink"
          data-testid="payout-owed"
          role="status"
        >
          You owe {formatPence(account.owedMinor)}: a refund to a buyer was taken back after the money had
          gone to your bank. It comes off your next payouts.
        </p>
      )}
      {action && (
        <div className="mt-4 flex flex-col gap-2">
          <Button
            variant="brand"
            className="self-start"
            disabled={start.isPending}
            onClick={() => start.mutate({})}
            data-testid="start-onboarding"
          >
            {start.isPending ? 'Opening…' : action}
          </Button>
          {start.error && (
            <p role="alert" className="text-sm text-destructive">
              {start.error.message}
            </p>
          )}
        </div>
      )}
    </section>
  );
}
