import { zodResolver } from '@hookform/resolvers/zod';
import { emailSchema, passwordSchema } from '@reshelf/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router-dom';
import { z } from 'zod';
import { Field } from '../../components/form/Field.tsx';
import { PasswordInput } from '../../components/form/PasswordInput.tsx';
import { SubmitButton } from '../../components/form/SubmitButton.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Input } from '../../components/ui/input.tsx';
import { apiErrorCode, apiErrorMessage, apiFieldErrors } from '../../lib/api-errors.ts';
import { withNext } from '../../lib/next-path.ts';
import { markSignedIn } from '../../lib/session.ts';
import { trpc } from '../../lib/trpc.ts';
import { textLinkClass } from './AuthShell.tsx';
import { rememberPendingEmail } from './pending-email.ts';

const signInSchema = z.object({ email: emailSchema, password: passwordSchema });
type SignInValues = z.input<typeof signInSchema>;

/**
 * Signs in; the page then leaves for `next` once the session shows the person signed in. An
 * unconfirmed account is offered a new confirmation link that carries `next` on too.
 */
export function SignInForm({ next = null }: { next?: string | null }) {
  const queryClient = useQueryClient();
  const signIn = trpc.account.auth.signIn.useMutation();
  const [problem, setProblem] = useState<{ message: string; unconfirmedEmail?: string } | null>(null);
  const form = useForm<SignInValues, unknown, z.output<typeof signInSchema>>({
    resolver: zodResolver(signInSchema),
    defaultValues: { email: '', password: '' },
    mode: 'onTouched',
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setProblem(null);
    try {
      const result = await signIn.mutateAsync(values);
      markSignedIn(queryClient, result.user);
    } catch (error) {
      const fields = apiFieldErrors(error);
      for (const [field, message] of Object.entries(fields)) {
        if (field === 'email' || field === 'password') form.setError(field, { message });
      }
      if (Object.keys(fields).length) return;
      const unconfirmed = apiErrorCode(error) === 'PRECONDITION_FAILED';
      if (unconfirmed) rememberPendingEmail(values.email);
      setProblem({
        message: apiErrorMessage(error),
        ...(unconfirmed ? { unconfirmedEmail: values.email } : {}),
      });
      if (apiErrorCode(error) === 'BAD_REQUEST') form.resetField('password', { keepError: false });
    }
  });

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5" aria-label="Sign in">
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
      <Field
        label="Password"
        error={errors.password?.message}
        aside={
          <Link to="/forgot-password" className={`text-sm ${textLinkClass}`}>
            Forgot your password?
          </Link>
        }
      >
        {(control) => (
          <PasswordInput {...control} {...form.register('password')} autoComplete="current-password" />
        )}
      </Field>
      {problem ? (
        <Alert tone="error" data-testid="form-error">
          <p>{problem.message}</p>
          {problem.unconfirmedEmail ? (
            <Link
              to={withNext('/email-confirmation', next)}
              state={{ email: problem.unconfirmedEmail }}
              className={`mt-2 inline-block ${textLinkClass}`}
            >
              Send me a new confirmation link
            </Link>
          ) : null}
        </Alert>
      ) : null}
      <SubmitButton pending={isSubmitting} pendingLabel="Signing in…">
        Sign in
      </SubmitButton>
    </form>
  );
}
