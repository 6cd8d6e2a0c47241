import { zodResolver } from '@hookform/resolvers/zod';
import { displayNameSchema } from '@reshelf/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { z } from 'zod';
import { Field } from '../../components/form/Field.tsx';
import { SubmitButton } from '../../components/form/SubmitButton.tsx';
import { AuthFormSkeleton } from '../../components/placeholders.tsx';
import { SessionCheckFailed } from '../../components/SessionCheckFailed.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Input, Textarea } from '../../components/ui/input.tsx';
import { apiErrorMessage, apiFieldErrors } from '../../lib/api-errors.ts';
import { loginPath, safeNextPath, withNext } from '../../lib/next-path.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { refreshSession, useSession } from '../../lib/session.ts';
import { trpc } from '../../lib/trpc.ts';
import { AuthShell } from './AuthShell.tsx';

export const TOWN_MAX = 80;
export const BIO_MAX = 1000;

const profileSchema = z.object({
  displayName: displayNameSchema,
  town: z.string().trim().max(TOWN_MAX, `Town is at most ${TOWN_MAX} characters`),
  bio: z.string().trim().max(BIO_MAX, `About you is at most ${BIO_MAX} characters`),
});
type ProfileValues = z.input<typeof profileSchema>;
const FIELDS = ['displayName', 'town', 'bio'] as const;

/**
 * /complete-signup: after confirming their address, the person finishes their profile (display
 * name, town, about you), then picks favourite genres at /onboarding. The route is public (spec
 * section 2), so without a session it asks the person to sign in first.
 */
export function CompleteSignupPage() {
  usePageMeta('Finish your profile', 'Tell other readers a little about yourself.');
  const session = useSession();
  const location = useLocation();
  const [params] = useSearchParams();
  const next = safeNextPath(params.get('next'));
  const justConfirmed = Boolean((location.state as { justConfirmed?: boolean } | null)?.justConfirmed);

  if (session.status === 'loading') return <AuthFormSkeleton />;
  if (session.status === 'error')
    return <SessionCheckFailed retry={session.retry} retrying={session.retrying} />;
  if (session.status === 'signed-out') {
    return (
      <AuthShell title="Finish your profile" eyebrow="Step 1 of 2">
        <div className="flex flex-col gap-5">
          <p className="text-ink-soft">Sign in to finish setting up your account.</p>
          <Button asChild variant="brand" size="lg">
            <Link to={loginPath(withNext('/complete-signup', next))}>Sign in</Link>
          </Button>
        </div>
      </AuthShell>
    );
  }

  return (
    <AuthShell
      eyebrow="Step 1 of 2"
      title="Finish your profile"
      description="Tell other readers a little about yourself. Only your display name is required."
      beforeCard={
        justConfirmed ? (
          <Alert tone="success" className="mt-6" data-testid="confirmed-notice">
            Thanks — your email address <strong className="break-words text-ink">{session.user.email}</strong>{' '}
            is confirmed.
          </Alert>
        ) : null
      }
    >
      <ProfileFormLoader next={next} />
    </AuthShell>
  );
}

function ProfileFormLoader({ next }: { next: string | null }) {
  const profile = trpc.account.member.profile.useQuery();
  if (profile.isPending) {
    return (
      <p role="status" className="text-ink-muted">
        Loading your profile…
      </p>
    );
  }
  if (profile.isError) {
    return (
      <Alert tone="error">
        {apiErrorMessage(profile.error)}{' '}
        <button
          type="button"
          className="font-semibold text-brand underline"
          onClick={() => profile.refetch()}
        >
          Try again
        </button>
      </Alert>
    );
  }
  return (
    <ProfileForm
      next={next}
      defaults={{
        displayName: profile.data.displayName,
        town: profile.data.town ?? '',
        bio: profile.data.bio ?? '',
      }}
    />
  );
}

function ProfileForm({ defaults, next }: { defaults: ProfileValues; next: string | null }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const utils = trpc.useUtils();
  const completeSignup = trpc.account.member.completeSignup.useMutation();
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm<ProfileValues, unknown, z.output<typeof profileSchema>>({
    resolver: zodResolver(profileSchema),
    defaultValues: defaults,
    mode: 'onTouched',
  });
  const { errors, isSubmitting } = form.formState;
  const bioLength = form.watch('bio')?.length ?? 0;

  const onSubmit = form.handleSubmit(async (values) => {
    setProblem(null);
    try {
      await completeSignup.mutateAsync(values);
      await Promise.all([refreshSession(queryClient), utils.account.member.profile.invalidate()]);
      await navigate(withNext('/onboarding', next));
    } catch (error) {
      const fields = apiFieldErrors(error);
      let placed = false;
      for (const field of FIELDS) {
        const message = fields[field];
        if (message) {
          form.setError(field, { message });
          placed = true;
        }
      }
      if (!placed) setProblem(apiErrorMessage(error));
    }
  });

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5" aria-label="Your profile">
      <Field
        label="Display name"
        hint="Shown on your listings, reviews and messages."
        error={errors.displayName?.message}
      >
        {(control) => (
          <Input {...control} {...form.register('displayName')} autoComplete="nickname" maxLength={60} />
        )}
      </Field>
      <Field
        label="Town"
        optional
        hint="Helps buyers see where a book is posted from."
        error={errors.town?.message}
      >
        {(control) => (
          <Input {...control} {...form.register('town')} autoComplete="address-level2" maxLength={TOWN_MAX} />
        )}
      </Field>
      <Field label="About you" optional hint="What do you love to read?" error={errors.bio?.message}>
        {(control) => (
          <>
            <Textarea {...control} {...form.register('bio')} rows={4} maxLength={BIO_MAX} />
            <p className="text-right text-xs text-ink-muted" aria-live="polite">
              {bioLength} / {BIO_MAX}
            </p>
          </>
        )}
      </Field>
      {problem ? (
        <Alert tone="error" data-testid="form-error">
          {problem}
        </Alert>
      ) : null}
      <SubmitButton pending={isSubmitting} pendingLabel="Saving…">
        Save and continue
      </SubmitButton>
    </form>
  );
}
