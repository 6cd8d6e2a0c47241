import {
  CONTACT_TOPIC_LABELS,
  CONTACT_TOPICS,
  type ContactInput,
  contactInputSchema,
} from '@reshelf/contracts';
import { CheckCircle2, Loader2, Send } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { z } from 'zod';
import { PageHeader } from '../../components/PageHeader.tsx';
import { Button } from '../../components/ui/button.tsx';
import { usePageMeta } from '../../lib/page-meta.ts';
import { trpc } from '../../lib/trpc.ts';
import { cn } from '../../lib/utils.ts';

type Field = 'name' | 'email' | 'topic' | 'message';
type Errors = Partial<Record<Field, string>>;

const fieldClass =
  'w-full rounded-md border border-line bg-white px-3 text-ink shadow-sm focus-visible:border-brand focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-brand aria-[invalid=true]:border-destructive';

export function ContactPage() {
  usePageMeta(
    'Contact us',
    'Send the Reshelf team a message about an order, selling, charities or your account.',
  );
  const id = useId();
  const [values, setValues] = useState<ContactInput>({
    name: '',
    email: '',
    topic: 'order',
    message: '',
    website: '',
  });
  const [errors, setErrors] = useState<Errors>({});
  const submit = trpc.platform.contact.submit.useMutation({
    onError(error) {
      const fieldErrors = error.data?.zodError?.fieldErrors as
        | Record<string, string[] | undefined>
        | undefined;
      if (fieldErrors) {
        setErrors(
          Object.fromEntries(
            Object.entries(fieldErrors).map(([key, messages]) => [key, messages?.[0]]),
          ) as Errors,
        );
      }
    },
  });

  const set = (field: keyof ContactInput, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    if (errors[field as Field]) setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = contactInputSchema.safeParse(values);
    if (!parsed.success) {
      const flat = z.flattenError(parsed.error).fieldErrors as Record<string, string[] | undefined>;
      const next = Object.fromEntries(
        Object.entries(flat).map(([key, messages]) => [key, messages?.[0]]),
      ) as Errors;
      setErrors(next);
      const first = (['name', 'email', 'topic', 'message'] as const).find((field) => next[field]);
      if (first) event.currentTarget.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
      return;
    }
    submit.mutate(parsed.data);
  };

  if (submit.isSuccess) {
    return (
      <>
        <PageHeader title="Contact us" />
        <div className="mx-auto w-full max-w-2xl px-4 py-12 sm:px-6">
          <div
            role="status"
            className="flex gap-3 rounded-xl border border-moss/30 bg-moss-soft p-6"
            data-testid="contact-sent"
          >
            <CheckCircle2 aria-hidden="true" className="mt-0.5 size-6 shrink-0 text-moss" />
            <div>
              <h2 className="text-2xl font-semibold">Thank you, we've got your message</h2>
              <p className="mt-2 text-ink-soft">
                We reply to every message within one working day, by email to {values.email}. Your reference
                is <strong>{submit.data.reference}</strong>.
              </p>
              <Link
                to="/"
                className="mt-4 inline-block font-semibold text-brand underline-offset-4 hover:underline"
              >
                Back to the home page
              </Link>
            </div>
          </div>
        </div>
      </>
    );
  }

  const describedBy = (field: Field) => (errors[field] ? `${id}-${field}-error` : undefined);
  const errorText = (field: Field) =>
    errors[field] ? (
      <p id={`${id}-${field}-error`} className="text-sm text-destructive">
        {errors[field]}
      </p>
    ) : null;
  const serverError = submit.isError && !submit.error.data?.zodError ? submit.error.message : null;

  return (
    <>
      <PageHeader
        title="Contact us"
        description={
          <>
            Questions about an order, selling or your account? Send us a message and a person will reply
            within one working day. You might find a quicker answer in the{' '}
            <Link to="/help-centre" className="font-semibold text-brand hover:underline">
              help centre
            </Link>
            .
          </>
        }
      />
      <div className="mx-auto w-full max-w-2xl px-4 py-10 sm:px-6">
        <form
          noValidate
          onSubmit={onSubmit}
          className="flex flex-col gap-5"
          aria-describedby={serverError ? `${id}-server` : undefined}
        >
          {serverError ? (
            <p
              id={`${id}-server`}
              role="alert"
              className="rounded-md border border-destructive/30 bg-destructive/5 p-4 text-sm text-destructive"
            >
              {serverError}
            </p>
          ) : null}
          <div className="flex flex-col gap-1.5">
            <label htmlFor={`${id}-name`} className="font-semibold">
              Your name
            </label>
            <input
              id={`${id}-name`}
              name="name"
              autoComplete="name"
              className={cn(fieldClass, 'h-11')}
              value={values.name}
              aria-invalid={errors.name ? true : undefined}
              aria-describedby={describedBy('name')}
              onChange={(event) => set('name', event.target.value)}
            />
            {errorText('name')}
          </div>
          <div className="flex flex-col gap-1.5">
            <label htmlFor={`${id}-email`} className="font-semibold">
              Email address
            </label>
            <p id={`${id}-email-hint`} className="-mt-1 text-sm text-ink-muted">
              We'll only use it to reply to you.
            </p>
            <input
              id={`${id}-email`}
              name="email"
              type="email"
              autoComplete="email"
              className={cn(fieldClass, 'h-11')}
              value={values.email}
              aria-invalid={errors.email ? true : undefined}
              aria-describedby={[`${id}-email-hint`, describedBy('email')].filter(Boolean).join(' ')}
              onChange={(event) => set('email', event.target.value)}
            />
            {errorText('email')}
          </div>
          <div className="flex flex-col gap-1.5">
            <label htmlFor={`${id}-topic`} className="font-semibold">
              What is it about?
            </label>
            <select
              id={`${id}-topic`}
              name="topic"
              className={cn(fieldClass, 'h-11')}
              value={values.topic}
              aria-invalid={errors.topic ? true : undefined}
              aria-describedby={describedBy('topic')}
              onChange={(event) => set('topic', event.target.value)}
            >
              {CONTACT_TOPICS.map((topic) => (
                <option key={topic} value={topic}>
                  {CONTACT_TOPIC_LABELS[topic]}
                </option>
              ))}
            </select>
            {errorText('topic')}
          </div>
          <div className="flex flex-col gap-1.5">
            <label htmlFor={`${id}-message`} className="font-semibold">
              Your message
            </label>
            <textarea
              id={`${id}-message`}
              name="message"
              rows={7}
              maxLength={5000}
              className={cn(fieldClass, 'py-2')}
              value={values.message}
              aria-invalid={errors.message ? true : undefined}
              aria-describedby={describedBy('message')}
              onChange={(event) => set('message', event.target.value)}
            />
            {errorText('message')}
          </div>
          {/* Hidden from people (and from assistive technology): only bots fill it in. */}
          <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
            <label htmlFor={`${id}-website`}>Leave this empty</label>
            <input
              id={`${id}-website`}
              name="website"
              tabIndex={-1}
              autoComplete="off"
              value={values.website}
              onChange={(event) => set('website', event.target.value)}
            />
          </div>
          <Button type="submit" variant="brand" size="lg" className="self-start" disabled={submit.isPending}>
            {submit.isPending ? (
              <Loader2 aria-hidden="true" className="motion-safe:animate-spin" />
            ) : (
              <Send aria-hidden="true" />
            )}
            {submit.isPending ? 'Sending…' : 'Send message'}
          </Button>
        </form>
      </div>
    </>
  );
}
