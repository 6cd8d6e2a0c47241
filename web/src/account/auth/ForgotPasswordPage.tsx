import { zodResolver } from '@hookform/resolvers/zod';
import { emailSchema } from '@reshelf/contracts';
import { MailCheck } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router-dom';
import { z } from 'zod';
import { Field } from '../../components/form/Field.tsx';
import { SubmitButton } from '../../components/form/SubmitButton.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Input } from '../../components/ui/input.tsx';
import { apiErrorMessage, apiFieldErrors } from '../../lib/api-errors.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { trpc } from '../../lib/trpc.ts';
import { DevMailboxHint } from '../../platform/index.ts';
import { AuthShell, textLinkClass } from './AuthShell.tsx';

const forgotSchema = z.object({ email: emailSchema });

/**
 * /forgot-password: asks for a reset link. The answer is the same whether or not the address
 * has an account, so the page cannot be used to find out who is registered.
 */
export function ForgotPasswordPage() {
  usePageMeta('Reset your password', 'Get a link to choose a new password for your Reshelf account.');
  const request = trpc.account.auth.requestPasswordReset.useMutation();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm<z.input<typeof forgotSchema>, unknown, z.output<typeof forgotSchema>>({
    resolver: zodResolver(forgotSchema),
    defaultValues: { email: '' },
    mode: 'onTouched',
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async ({ email }) => {
    setProblem(null);
    try {
      await request.mutateAsync({ email });
      setSentTo(email);
    } catch (error) {
      const fieldError = apiFieldErrors(error).email;
      if (fieldError) form.setError('email', { message: fieldError });
      else setProblem(apiErrorMessage(error));
    }
  });

  const footer = (
    <>
      Remembered it?{' '}
      <Link to="/login" className={textLinkClass}>
        Sign in
      </Link>
    </>
  );

  if (sentTo) {
    return (
      <AuthShell title="Check your inbox" footer={footer}>
        <div className="flex flex-col gap-5" data-testid="reset-requested">
          <div className="flex gap-4">
            <span className="flex size-11 shrink-0 items-center justify-center rounded-full bg-brand-soft text-brand">
              <MailCheck aria-hidden="true" className="size-5" />
            </span>
            <div className="text-ink-soft">
              <p>
                If there's a Reshelf account for <strong className="break-words text-ink">{sentTo}</strong>,
                we've emailed it a link to choose a new password.
              </p>
              <p className="mt-2 text-sm text-ink-muted">
                The link works once and expires in 1 hour. If nothing arrives, check your spam folder, or make
                sure you used the address you signed up with.
              </p>
            </div>
          </div>
          <button
            type="button"
            onClick={() => {
              setSentTo(null);
              form.reset({ email: sentTo });
            }}
            className={`self-start text-sm ${textLinkClass}`}
          >
            Use a different address
          </button>
          <DevMailboxHint email={sentTo} />
        </div>
      </AuthShell>
    );
  }

  return (
    <AuthShell
      title="Forgotten your password?"
      description="Enter the email address you signed up with and we'll send you a link to choose a new one."
      footer={footer}
    >
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5" aria-label="Reset your password">
        <Field label="Email address" error={errors.email?.message}>
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
        {problem ? (
          <Alert tone="error" data-testid="form-error">
            {problem}
          </Alert>
        ) : null}
        <SubmitButton pending={isSubmitting} pendingLabel="Sending…">
          Send me a reset link
        </SubmitButton>
      </form>
    </AuthShell>
  );
}
