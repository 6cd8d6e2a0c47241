import { zodResolver } from '@hookform/resolvers/zod';
import { newPasswordSchema } from '@reshelf/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router-dom';
import { z } from 'zod';
import { Field } from '../../components/form/Field.tsx';
import { PasswordInput } from '../../components/form/PasswordInput.tsx';
import { SubmitButton } from '../../components/form/SubmitButton.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { apiErrorCode, apiErrorMessage, apiFieldErrors } from '../../lib/api-errors.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { markSignedOut } from '../../lib/session.ts';
import { trpc } from '../../lib/trpc.ts';
import { AuthShell, textLinkClass } from './AuthShell.tsx';
import { PASSWORD_HINT } from './SignUpForm.tsx';

const resetSchema = z
  .object({
    password: newPasswordSchema,
    confirmPassword: z.string().min(1, 'Type the new password again'),
  })
  .refine((values) => values.password === values.confirmPassword, {
    path: ['confirmPassword'],
    message: "The passwords don't match",
  });
type ResetValues = z.input<typeof resetSchema>;

/**
 * /reset-password?token=…, the link in the reset email. A new password signs the person out
 * everywhere; the page says so and links to sign in.
 */
export function ResetPasswordPage() {
  usePageMeta('Choose a new password');
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const queryClient = useQueryClient();
  const reset = trpc.account.auth.resetPassword.useMutation();
  const [done, setDone] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm<ResetValues, unknown, z.output<typeof resetSchema>>({
    resolver: zodResolver(resetSchema),
    defaultValues: { password: '', confirmPassword: '' },
    mode: 'onTouched',
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async ({ password }) => {
    setProblem(null);
    try {
      await reset.mutateAsync({ token, password });
      // Every session has ended, this one too (the API cleared its cookies).
      markSignedOut(queryClient);
      setDone(true);
    } catch (error) {
      const fields = apiFieldErrors(error);
      const message = fields.password ?? apiErrorMessage(error);
      // The password policy's answers go by the password; a bad or expired link, above the button.
      const aboutPassword =
        Boolean(fields.password) || (apiErrorCode(error) === 'BAD_REQUEST' && !/link/i.test(message));
      if (aboutPassword) form.setError('password', { message }, { shouldFocus: true });
      else setProblem(message);
    }
  });

  if (done) {
    return (
      <AuthShell title="Your password has been changed">
        <div className="flex flex-col gap-5" data-testid="reset-done">
          <div className="flex gap-4">
            <span className="flex size-11 shrink-0 items-center justify-center rounded-full bg-moss-soft text-moss">
              <ShieldCheck aria-hidden="true" className="size-5" />
            </span>
            <p className="text-ink-soft">
              For your security, we've signed you out on all your devices, including this one. Sign in again
              with your new password.
            </p>
          </div>
          <Button asChild variant="brand" size="lg">
            <Link to="/login">Sign in</Link>
          </Button>
        </div>
      </AuthShell>
    );
  }

  if (!token) {
    return (
      <AuthShell title="This link is incomplete">
        <div className="flex flex-col gap-5">
          <p className="text-ink-soft">
            Open the link from the password reset email again, or copy the whole link into your browser. If it
            has expired, ask for a new one.
          </p>
          <Button asChild variant="brand" size="lg">
            <Link to="/forgot-password">Ask for a new link</Link>
          </Button>
        </div>
      </AuthShell>
    );
  }

  const linkProblem = problem && /link/i.test(problem);

  return (
    <AuthShell
      title="Choose a new password"
      description="Choose a password you don't use anywhere else. Changing it signs you out on all your devices."
    >
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5" aria-label="Choose a new password">
        <Field label="New password" hint={PASSWORD_HINT} error={errors.password?.message}>
          {(control) => (
            <PasswordInput {...control} {...form.register('password')} autoComplete="new-password" />
          )}
        </Field>
        <Field label="Confirm new password" error={errors.confirmPassword?.message}>
          {(control) => (
            <PasswordInput {...control} {...form.register('confirmPassword')} autoComplete="new-password" />
          )}
        </Field>
        {problem ? (
          <Alert tone="error" data-testid="form-error">
            <p>{problem}</p>
            {linkProblem ? (
              <Link to="/forgot-password" className={`mt-2 inline-block ${textLinkClass}`}>
                Ask for a new link
              </Link>
            ) : null}
          </Alert>
        ) : null}
        <SubmitButton pending={isSubmitting} pendingLabel="Saving…">
          Save new password
        </SubmitButton>
      </form>
    </AuthShell>
  );
}
