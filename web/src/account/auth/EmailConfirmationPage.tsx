import { zodResolver } from '@hookform/resolvers/zod';
import { emailSchema } from '@reshelf/contracts';
import { MailCheck } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useSearchParams } from 'react-router-dom';
import { z } from 'zod';
import { Field } from '../../components/form/Field.tsx';
import { SubmitButton } from '../../components/form/SubmitButton.tsx';
import { Input } from '../../components/ui/input.tsx';
import { loginPath, safeNextPath, withNext } from '../../lib/next-path.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { DevMailboxHint } from '../../platform/index.ts';
import { AuthShell, textLinkClass } from './AuthShell.tsx';
import { pendingEmail, rememberPendingEmail } from './pending-email.ts';
import { ResendConfirmation } from './ResendConfirmation.tsx';

function emailFromState(state: unknown): string | null {
  if (state && typeof state === 'object' && 'email' in state && typeof state.email === 'string') {
    return state.email;
  }
  return null;
}

/** /email-confirmation: after sign-up, "check your inbox", with the address and a resend button. */
export function EmailConfirmationPage() {
  usePageMeta('Check your inbox', 'Confirm your email address to finish creating your Reshelf account.');
  const location = useLocation();
  const [params] = useSearchParams();
  const next = safeNextPath(params.get('next'));
  const [email, setEmail] = useState(() => emailFromState(location.state) ?? pendingEmail());

  return (
    <AuthShell
      title="Check your inbox"
      description={
        email ? (
          <p data-testid="confirmation-email">
            We've sent a confirmation link to <strong className="break-words text-ink">{email}</strong>.
          </p>
        ) : (
          <p>Confirm your email address to finish creating your account.</p>
        )
      }
      footer={
        <>
          Already confirmed?{' '}
          <Link to={loginPath(next)} className={textLinkClass}>
            Sign in
          </Link>
        </>
      }
    >
      {email ? (
        <div className="flex flex-col gap-5">
          <div className="flex gap-4">
            <span className="flex size-11 shrink-0 items-center justify-center rounded-full bg-brand-soft text-brand">
              <MailCheck aria-hidden="true" className="size-5" />
            </span>
            <div className="text-ink-soft">
              <p>
                Open the email and select the link to confirm your address and finish setting up your account.
              </p>
              <p className="mt-2 text-sm text-ink-muted">
                The link works once and expires in 24 hours. If you can't find the email, check your spam or
                junk folder.
              </p>
            </div>
          </div>
          <div className="border-t border-line pt-5">
            <p className="mb-3 text-sm font-semibold text-ink">Didn't get it?</p>
            <ResendConfirmation email={email} next={next} />
          </div>
          <p className="text-sm text-ink-muted">
            Wrong address?{' '}
            <Link to={withNext('/login?mode=signup', next)} className={textLinkClass}>
              Sign up again
            </Link>{' '}
            with the right one.
          </p>
          <DevMailboxHint email={email} />
        </div>
      ) : (
        <AskForAddress onAddress={setEmail} />
      )}
    </AuthShell>
  );
}

const addressSchema = z.object({ email: emailSchema });

/** Without a remembered address (another device, storage cleared), ask for it. */
function AskForAddress({ onAddress }: { onAddress: (email: string) => void }) {
  const form = useForm<z.input<typeof addressSchema>, unknown, z.output<typeof addressSchema>>({
    resolver: zodResolver(addressSchema),
    defaultValues: { email: '' },
  });
  const onSubmit = form.handleSubmit(({ email }) => {
    rememberPendingEmail(email);
    onAddress(email);
  });
  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
      <p className="text-ink-soft">Which address did you sign up with? We'll show how to confirm it.</p>
      <Field label="Email address" error={form.formState.errors.email?.message}>
        {(control) => (
          <Input
            {...control}
            {...form.register('email')}
            type="email"
            inputMode="email"
            autoComplete="email"
            autoCapitalize="none"
            spellCheck={false}
          />
        )}
      </Field>
      <SubmitButton pending={false}>Continue</SubmitButton>
    </form>
  );
}
