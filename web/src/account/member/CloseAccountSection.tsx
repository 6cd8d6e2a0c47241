/**
 * The last part of /account/settings: closing the account for ever (account.member.close). It
 * says what is deleted, what is kept and why, asks for the current password and the word CLOSE
 * in a confirmation dialog, and shows the server's refusal (e.g. an order to finish first). On
 * success the person is signed out and sent to the home page, told "Your account is closed".
 */
import { UserX } from 'lucide-react';
import { useState } from 'react';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { Field } from '../../components/form/Field.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Input } from '../../components/ui/input.tsx';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { trpc } from '../../lib/trpc.ts';
import { rememberAccountClosed } from './AccountClosedNotice.tsx';

/** The word typed to confirm (the server checks it too). */
const CONFIRM_WORD = 'CLOSE';

export function CloseAccountSection() {
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [word, setWord] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const close = trpc.account.member.close.useMutation();

  function reset(next: boolean) {
    setOpen(next);
    if (!next) {
      setPassword('');
      setWord('');
      setProblem(null);
      close.reset();
    }
  }

  function submit() {
    if (!password) return setProblem('Enter your current password.');
    if (word.trim() !== CONFIRM_WORD) return setProblem(`Type ${CONFIRM_WORD} in capitals to confirm.`);
    setProblem(null);
    close.mutate(
      { password, confirm: CONFIRM_WORD },
      {
        onSuccess: () => {
          // The API has cleared the cookies. The home page is loaded afresh, as signing out of a
          // signed-in page does: nothing of the session stays in memory, and no guard of this
          // page can send the person to /login meanwhile. It shows "Your account is closed".
          rememberAccountClosed();
          window.location.assign('/');
        },
      },
    );
  }

  const error = problem ?? (close.error ? apiErrorMessage(close.error) : null);

  return (
    <section
      aria-labelledby="close-account"
      data-testid="close-account"
      className="mt-8 flex flex-col gap-4 rounded-xl border border-destructive/40 bg-paper p-5 shadow-card sm:p-6"
    >
      <h2 id="close-account" className="flex items-center gap-2.5 text-xl font-semibold">
        <span className="flex size-9 items-center justify-center rounded-full bg-destructive/10 text-destructive">
          <UserX aria-hidden="true" className="size-4.5" />
        </span>
        Close your account
      </h2>
      <p className="text-ink-soft">
        Closing your account cannot be undone. You will be signed out everywhere, you will not be able to sign
        in again, and your email address will be free to use for a new account.
      </p>
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <h3 className="font-semibold">What we delete</h3>
          <ul className="mt-1.5 list-disc space-y-1 pl-5 text-sm text-ink-soft">
            <li>Your books on sale are withdrawn and your drafts deleted, with their photos</li>
            <li>Your offers waiting for an answer are withdrawn or declined</li>
            <li>Your profile: name, town, about you and photo (shown as “Former member”)</li>
            <li>Your basket, wishlist, follows, followers and saved searches</li>
            <li>Your saved addresses, notifications, email choices, API tokens and sessions</li>
          </ul>
        </div>
        <div>
          <h3 className="font-semibold">What we keep, and why</h3>
          <ul className="mt-1.5 list-disc space-y-1 pl-5 text-sm text-ink-soft">
            <li>
              Your orders, payments, refunds and payouts, with each order’s delivery address: UK law requires
              us to keep these records for six years
            </li>
            <li>
              Reviews and messages you wrote, for the people you traded with, shown as written by “Former
              member”
            </li>
          </ul>
        </div>
      </div>
      <p className="text-sm text-ink-soft">
        You cannot close your account while an order, dispute or return is in progress, an accepted offer is
        waiting to be paid for, money from your sales is waiting to be paid out, or you own a charity on
        Reshelf. Everything else is deleted or anonymised within 30 days.
      </p>
      <div>
        <Button variant="destructive" onClick={() => reset(true)}>
          Close my account
        </Button>
      </div>
      <ConfirmDialog
        open={open}
        onOpenChange={reset}
        title="Close your account for ever?"
        description={
          <p>
            This cannot be undone. Enter your current password and type{' '}
            <strong className="font-semibold text-ink">{CONFIRM_WORD}</strong> to confirm.
          </p>
        }
        confirmLabel="Close my account"
        confirmVariant="destructive"
        cancelLabel="Keep my account"
        pending={close.isPending || close.isSuccess}
        error={error}
        onConfirm={submit}
      >
        <Field label="Your current password">
          {(control) => (
            <Input
              {...control}
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(event) => setPassword(event.target.value)}
            />
          )}
        </Field>
        <Field label={`Type ${CONFIRM_WORD} to confirm`}>
          {(control) => (
            <Input
              {...control}
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              value={word}
              onChange={(event) => setWord(event.target.value)}
            />
          )}
        </Field>
      </ConfirmDialog>
    </section>
  );
}
