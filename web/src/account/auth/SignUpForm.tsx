import { zodResolver } from '@hookform/resolvers/zod';
import { displayNameSchema, emailSchema, newPasswordSchema } from '@reshelf/contracts';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router-dom';
import { z } from 'zod';
import { Field } from '../../components/form/Field.tsx';
import { PasswordInput } from '../../components/form/PasswordInput.tsx';
import { SubmitButton } from '../../components/form/SubmitButton.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Input } from '../../components/ui/input.tsx';
import { apiErrorCode, apiErrorMessage, apiFieldErrors } from '../../lib/api-errors.ts';
import { withNext } from '../../lib/next-path.ts';
import { trpc } from '../../lib/trpc.ts';
import { textLinkClass } from './AuthShell.tsx';
import { rememberPendingEmail } from './pending-email.ts';

/** The server checks the whole password policy; the length rule is mirrored here. */
const signUpSchema = z.object({
  displayName: displayNameSchema,
  email: emailSchema,
  password: newPasswordSchema,
});
type SignUpValues = z.input<typeof signUpSchema>;
const FIELDS = ['displayName', 'email', 'password'] as const;

export const PASSWORD_HINT = 'At least 10 characters. Avoid common passwords and your email address.';

/**
 * Creates an unconfirmed account, then shows /email-confirmation ("check your inbox"). `next`
 * (a checked same-site path: where the person was going) travels in the emailed link, so
 * confirming, finishing the profile and onboarding end there.
 */
export function SignUpForm({ next = null }: { next?: string | null }) {
  const navigate = useNavigate();
  const signUp = trpc.account.auth.signUp.useMutation();
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm<SignUpValues, unknown, z.output<typeof signUpSchema>>({
    resolver: zodResolver(signUpSchema),
    defaultValues: { displayName: '', email: '', password: '' },
    mode: 'onTouched',
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setProblem(null);
    try {
      const { email } = await signUp.mutateAsync(next ? { ...values, next } : values);
      rememberPendingEmail(email);
      await navigate(withNext('/email-confirmation', next), { state: { email } });
    } catch (error) {
      const fields = apiFieldErrors(error);
      let placed = false;
      for (const field of FIELDS) {
        const message = fields[field];
        if (message) {
          form.setError(field, { message }, { shouldFocus: !placed });
          placed = true;
        }
      }
      if (placed) return;
      // Input was valid, so a BAD_REQUEST here is the password policy: say it by the password.
      if (apiErrorCode(error) === 'BAD_REQUEST') {
        form.setError('password', { message: apiErrorMessage(error) }, { shouldFocus: true });
        return;
      }
      setProblem(apiErrorMessage(error));
    }
  });

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5" aria-label="Create an account">
      <Field
        label="Display name"
        hint="The name other people see on your listings and messages."
        error={errors.displayName?.message}
      >
        {(control) => (
          <Input {...control} {...form.register('displayName')} autoComplete="nickname" maxLength={60} />
        )}
      </Field>
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
      <Field label="Password" hint={PASSWORD_HINT} error={errors.password?.message}>
        {(control) => (
          <PasswordInput {...control} {...form.register('password')} autoComplete="new-password" />
        )}
      </Field>
      {problem ? (
        <Alert tone="error" data-testid="form-error">
          {problem}
        </Alert>
      ) : null}
      <SubmitButton pending={isSubmitting} pendingLabel="Creating your account…">
        Create account
      </SubmitButton>
      <p className="text-center text-xs text-ink-muted">
        By creating an account you agree to our{' '}
        <Link to="/terms" className={textLinkClass}>
          terms and conditions
        </Link>{' '}
        and{' '}
        <Link to="/pages/privacy-policy" className={textLinkClass}>
          privacy policy
        </Link>
        .
      </p>
    </form>
  );
}
