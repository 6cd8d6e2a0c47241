/**
 * /charity/signup: a charity applies to sell (the signed-in applicant becomes its owner), and
 * /charity-signup-confirmation: what happens next. Both are public pages: a visitor who is not
 * signed in is asked to sign in or create an account first, and comes back here.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import {
  CHARITY_LOGO_PATH,
  CHARITY_REGISTER_LABELS,
  type CharitySignupInput,
  charitySignupInputSchema,
  parseCharityNumber,
  SELLING_MESSAGES,
} from '@reshelf/contracts';
import { BadgeCheck, Clock3, ImagePlus, MailCheck } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router-dom';
import type { z } from 'zod';
import { Field } from '../components/form/Field.tsx';
import { SubmitButton } from '../components/form/SubmitButton.tsx';
import { PageBody, PageHeader } from '../components/PageHeader.tsx';
import { PageSkeleton } from '../components/placeholders.tsx';
import { Alert } from '../components/ui/alert.tsx';
import { Button } from '../components/ui/button.tsx';
import { Input, Textarea } from '../components/ui/input.tsx';
import { apiErrorMessage, apiFieldErrors } from '../lib/api-errors.ts';
import { mediaUrl } from '../lib/media.ts';
import { loginPath } from '../lib/next-path.ts';
import { usePageMeta } from '../lib/page-meta.ts';
import { useSession } from '../lib/session.ts';
import { trpc } from '../lib/trpc.ts';
import { checkPhotoFile, UploadError, uploadFile } from '../lib/upload.ts';

const linkClass = 'font-semibold text-brand underline-offset-4 hover:underline';

type FormValues = z.input<typeof charitySignupInputSchema>;
const FIELDS = [
  'name',
  'registeredNumber',
  'contactName',
  'contactEmail',
  'contactPhone',
  'addressLine1',
  'addressLine2',
  'town',
  'postcode',
  'description',
  'website',
] as const;

export function CharitySignupPage() {
  usePageMeta('Register your charity', 'Apply to sell donated books on Reshelf as a registered charity.');
  const session = useSession();
  const mine = trpc.charities.mine.useQuery(undefined, { enabled: session.status === 'signed-in' });
  if (session.status === 'loading' || (session.status === 'signed-in' && mine.isPending))
    return <PageSkeleton />;
  return (
    <>
      <PageHeader
        title="Register your charity"
        description="Tell us about your charity. We check every application against its charity register, usually within two working days."
        crumbs={[{ to: '/charity', label: 'Charities' }]}
      />
      <PageBody className="max-w-3xl">
        {session.status !== 'signed-in' ? (
          <Alert title="Sign in to apply">
            The person who applies becomes the charity’s owner on Reshelf and can invite the shop’s staff
            later.{' '}
            <Link to={loginPath('/charity/signup')} className={linkClass}>
              Sign in or create an account
            </Link>
            , then come back to this page.
          </Alert>
        ) : mine.data && mine.data.status !== 'rejected' ? (
          <Alert
            tone="success"
            title={`You ${mine.data.status === 'approved' ? 'sell' : 'have applied'} for ${mine.data.name}`}
          >
            {mine.data.status === 'approved'
              ? 'Your charity is approved. '
              : 'We will email you as soon as our team has reviewed your application. '}
            <Link to="/charity/dashboard" className={linkClass}>
              Open the charity dashboard
            </Link>
          </Alert>
        ) : (
          <>
            {mine.data?.status === 'rejected' ? (
              <Alert
                tone="error"
                title={`Your application for ${mine.data.name} was not approved`}
                className="mb-6"
              >
                {mine.data.rejectionReason} You can apply again below with corrected details.
              </Alert>
            ) : null}
            <SignupForm defaultEmail={session.user.email} />
          </>
        )}
      </PageBody>
    </>
  );
}

function SignupForm({ defaultEmail }: { defaultEmail: string }) {
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const signup = trpc.charities.signup.useMutation();
  const [problem, setProblem] = useState<string | null>(null);
  const [logo, setLogo] = useState<{ url: string } | null>(null);
  const [logoState, setLogoState] = useState<{ progress: number } | { error: string } | null>(null);
  const form = useForm<FormValues, unknown, z.output<typeof charitySignupInputSchema>>({
    resolver: zodResolver(charitySignupInputSchema),
    defaultValues: {
      name: '',
      registeredNumber: '',
      contactName: '',
      contactEmail: defaultEmail,
      contactPhone: '',
      addressLine1: '',
      addressLine2: '',
      town: '',
      postcode: '',
      description: '',
      website: '',
    },
  });
  const { errors, isSubmitting } = form.formState;
  const number = form.watch('registeredNumber');
  const parsedNumber = number ? parseCharityNumber(number) : null;

  const onLogo = async (file: File | undefined) => {
    if (!file) return;
    const wrong = checkPhotoFile(file);
    if (wrong) {
      setLogoState({ error: wrong });
      return;
    }
    setLogoState({ progress: 0 });
    try {
      const result = await uploadFile<{ url: string }>(CHARITY_LOGO_PATH, file, {
        field: 'logo',
        fallbackMessage: SELLING_MESSAGES.photoUnreadable,
        onProgress: (progress) => setLogoState({ progress }),
      });
      setLogo(result);
      setLogoState(null);
    } catch (error) {
      setLogoState({
        error: error instanceof UploadError ? error.message : SELLING_MESSAGES.photoUnreadable,
      });
    }
  };

  const onSubmit = form.handleSubmit(async (values) => {
    setProblem(null);
    try {
      const input: CharitySignupInput = { ...values, logoUrl: logo?.url ?? null };
      await signup.mutateAsync(input);
      await utils.charities.mine.invalidate();
      navigate('/charity-signup-confirmation');
    } catch (error) {
      const fields = apiFieldErrors(error);
      let placed = false;
      for (const name of FIELDS) {
        if (fields[name]) {
          form.setError(name, { message: fields[name] });
          placed = true;
        }
      }
      if (!placed) setProblem(apiErrorMessage(error));
    }
  });

  const text = (
    name: (typeof FIELDS)[number],
    label: string,
    options: { hint?: string; optional?: boolean; type?: string; autoComplete?: string } = {},
  ) => (
    <Field label={label} hint={options.hint} optional={options.optional} error={errors[name]?.message}>
      {(control) => (
        <Input
          {...control}
          {...form.register(name)}
          type={options.type ?? 'text'}
          autoComplete={options.autoComplete}
        />
      )}
    </Field>
  );

  return (
    <form noValidate onSubmit={onSubmit} aria-label="Charity application" className="flex flex-col gap-8">
      <fieldset className="flex flex-col gap-5">
        <legend className="mb-3 text-xl font-semibold">Your charity</legend>
        {text('name', 'Charity name', { autoComplete: 'organization' })}
        <Field
          label="Registered charity number"
          hint="England and Wales: 6 to 8 digits. Scotland: SC and 6 digits. Northern Ireland: NIC and 6 digits."
          error={errors.registeredNumber?.message}
        >
          {(control) => (
            <Input
              {...control}
              {...form.register('registeredNumber')}
              autoCapitalize="characters"
              spellCheck={false}
            />
          )}
        </Field>
        {parsedNumber?.ok ? (
          <p
            className="-mt-3 inline-flex items-center gap-1.5 text-sm text-moss"
            data-testid="charity-register"
          >
            <BadgeCheck aria-hidden="true" className="size-4" />
            {CHARITY_REGISTER_LABELS[parsedNumber.register]}
          </p>
        ) : null}
        <Field
          label="About your charity"
          optional
          hint="Shown on your charity’s page: what the money from books pays for."
          error={errors.description?.message}
        >
          {(control) => <Textarea {...control} {...form.register('description')} maxLength={2000} />}
        </Field>
        {text('website', 'Website', { optional: true, type: 'url', autoComplete: 'url' })}
        <div className="flex flex-col gap-2">
          <span className="text-sm font-semibold">
            Logo <span className="font-normal text-ink-muted">(optional)</span>
          </span>
          <div className="flex items-center gap-4">
            <div className="flex size-20 shrink-0 items-center justify-center overflow-hidden rounded-xl border border-line bg-paper-deep">
              {logo ? (
                <img src={mediaUrl(logo.url)} alt="Your logo" className="size-full object-contain" />
              ) : (
                <ImagePlus aria-hidden="true" className="size-6 text-ink-muted" />
              )}
            </div>
            <label className="cursor-pointer">
              <input
                type="file"
                accept="image/jpeg,image/png,image/webp"
                className="sr-only"
                data-testid="logo-input"
                onChange={(event) => void onLogo(event.target.files?.[0])}
              />
              <span className="inline-flex h-10 items-center rounded-lg border border-ink/20 bg-white px-4 text-sm font-semibold hover:border-ink/40">
                {logo ? 'Choose another logo' : 'Choose a logo'}
              </span>
            </label>
          </div>
          {logoState && 'progress' in logoState ? (
            <p className="text-sm text-ink-muted" aria-live="polite">
              Uploading… {Math.round(logoState.progress * 100)}%
            </p>
          ) : logoState && 'error' in logoState ? (
            <p className="text-sm font-medium text-destructive">{logoState.error}</p>
          ) : null}
        </div>
      </fieldset>

      <fieldset className="flex flex-col gap-5">
        <legend className="mb-3 text-xl font-semibold">Who we should contact</legend>
        {text('contactName', 'Contact name', { autoComplete: 'name' })}
        {text('contactEmail', 'Contact email', { type: 'email', autoComplete: 'email' })}
        {text('contactPhone', 'Phone number', { optional: true, type: 'tel', autoComplete: 'tel' })}
      </fieldset>

      <fieldset className="flex flex-col gap-5">
        <legend className="mb-1 text-xl font-semibold">Address</legend>
        <p className="-mt-2 text-sm text-ink-muted">Buyers post books they return to this address.</p>
        {text('addressLine1', 'Address line 1', { autoComplete: 'address-line1' })}
        {text('addressLine2', 'Address line 2', { optional: true, autoComplete: 'address-line2' })}
        <div className="grid gap-5 sm:grid-cols-2">
          {text('town', 'Town or city', { autoComplete: 'address-level2' })}
          {text('postcode', 'Postcode', { autoComplete: 'postal-code' })}
        </div>
      </fieldset>

      {problem ? (
        <Alert tone="error" data-testid="form-error">
          {problem}
        </Alert>
      ) : null}
      <SubmitButton
        pending={isSubmitting}
        pendingLabel="Sending your application…"
        className="sm:w-auto sm:self-start"
      >
        Apply to sell on Reshelf
      </SubmitButton>
    </form>
  );
}

export function CharitySignupConfirmationPage() {
  usePageMeta('Application received', 'Your charity’s application to sell on Reshelf.');
  const session = useSession();
  const mine = trpc.charities.mine.useQuery(undefined, { enabled: session.status === 'signed-in' });
  const charity = mine.data;
  return (
    <>
      <PageHeader
        title={
          charity?.status === 'approved' ? `${charity.name} is approved` : 'Thank you: your application is in'
        }
        crumbs={[{ to: '/charity', label: 'Charities' }]}
      />
      <PageBody className="max-w-3xl">
        {session.status === 'signed-out' ? (
          <Alert>
            <Link to={loginPath('/charity-signup-confirmation')} className={linkClass}>
              Sign in
            </Link>{' '}
            to see your application.
          </Alert>
        ) : (
          <div className="flex flex-col gap-6" data-testid="signup-confirmation">
            {charity ? (
              <p className="text-lg">
                We have {charity.status === 'approved' ? 'approved' : 'received'} the application for{' '}
                <strong>{charity.name}</strong> (registered charity {charity.registeredNumber}).
              </p>
            ) : null}
            <ol className="flex flex-col gap-4">
              {[
                {
                  icon: MailCheck,
                  title: 'We’ve emailed you',
                  text: 'A copy of your application is in your inbox.',
                },
                {
                  icon: Clock3,
                  title: 'Our team checks your charity',
                  text: 'We look your number up on the charity register, usually within two working days, and email you either way.',
                },
                {
                  icon: BadgeCheck,
                  title: 'Then you can sell',
                  text: 'List books one by one or a whole box at once from a spreadsheet, record donor references for Gift Aid, and invite your shop’s staff.',
                },
              ].map(({ icon: Icon, title, text }) => (
                <li key={title} className="flex gap-3 rounded-xl border border-line bg-paper p-4 shadow-card">
                  <Icon aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-moss" />
                  <span>
                    <span className="block font-semibold">{title}</span>
                    <span className="text-ink-muted">{text}</span>
                  </span>
                </li>
              ))}
            </ol>
            <div className="flex flex-col gap-3 sm:flex-row">
              <Button asChild variant="brand" size="lg">
                <Link to="/charity/dashboard">Go to your charity dashboard</Link>
              </Button>
              <Button asChild variant="outline" size="lg">
                <Link to="/charity/directory">See the charity directory</Link>
              </Button>
            </div>
          </div>
        )}
      </PageBody>
    </>
  );
}
