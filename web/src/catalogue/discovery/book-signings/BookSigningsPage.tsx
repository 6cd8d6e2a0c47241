/**
 * /admin/book-signings (staff): author events. Create one as a draft (title, author, venue,
 * date and time, description), edit it, publish or unpublish it. Soonest first.
 */
import { Pencil, Plus } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { AdminPageFrame, EmptyState, formatDateTime } from '../../../components/staff/AdminPageFrame.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Input, Label, Textarea } from '../../../components/ui/input.tsx';
import { toast } from '../../../components/ui/use-toast.ts';
import { QueryView } from '../../../kit/QueryView.tsx';
import { apiErrorMessage } from '../../../lib/api-errors.ts';
import { type RouterOutputs, trpc } from '../../../lib/trpc.ts';
import { cn } from '../../../lib/utils.ts';
import { useCreateSigning, useSetSigningPublished, useUpdateSigning } from './hooks.ts';

type Signing = RouterOutputs['catalogue']['discovery']['bookSignings']['list'][number];

const failed = (title: string) => (error: unknown) =>
  toast({ variant: 'destructive', title, description: apiErrorMessage(error) });

/** An ISO time as a datetime-local value in this browser's time zone. */
function toLocalInput(iso: string): string {
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

export function BookSigningsPage() {
  const signings = trpc.catalogue.discovery.bookSignings.list.useQuery();
  const [editing, setEditing] = useState<string | null>(null);
  const publish = useSetSigningPublished({
    onSuccess: (_data, input) => toast({ title: input.published ? 'Event published' : 'Event unpublished' }),
    onError: failed('Event not changed'),
  });

  return (
    <AdminPageFrame
      title="Book signings"
      description="Author events: create them as drafts, edit them, and publish them when they are confirmed."
      testId="book-signings-page"
    >
      <details className="rounded-xl border border-line bg-paper p-4">
        <summary className="cursor-pointer font-semibold">
          <Plus className="mr-1 inline size-4" aria-hidden="true" />
          New event
        </summary>
        <div className="mt-3">
          <SigningForm />
        </div>
      </details>
      <QueryView
        query={signings}
        pending="Loading events…"
        empty={
          <EmptyState testId="book-signings-empty">
            No book signings yet: create the first one above.
          </EmptyState>
        }
      >
        {(data) => (
          <ul className="flex flex-col gap-3" data-testid="book-signings">
            {data.map((signing) => (
              <li
                key={signing.id}
                data-testid="book-signing"
                data-published={signing.publishedAt ? 'true' : 'false'}
                className="rounded-xl border border-line bg-paper p-4"
              >
                {editing === signing.id ? (
                  <SigningForm
                    signing={signing}
                    onDone={() => setEditing(null)}
                    onCancel={() => setEditing(null)}
                  />
                ) : (
                  <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
                    <div className="min-w-0 flex-1">
                      <p className="font-semibold">
                        {signing.title}{' '}
                        <span
                          className={cn(
                            'ml-1 rounded px-1.5 py-0.5 text-xs font-semibold',
                            signing.publishedAt ? 'bg-brand/10 text-brand' : 'bg-ink/10 text-ink-muted',
                          )}
                        >
                          {signing.publishedAt ? 'Published' : 'Draft'}
                        </span>
                      </p>
                      <p className="text-sm text-ink-soft">
                        {signing.author} · {signing.venue} · {formatDateTime(signing.startsAt)}
                      </p>
                      {signing.description ? <p className="mt-1 text-sm">{signing.description}</p> : null}
                    </div>
                    <div className="flex gap-2">
                      <Button variant="outline" size="sm" onClick={() => setEditing(signing.id)}>
                        <Pencil aria-hidden="true" /> Edit <span className="sr-only">{signing.title}</span>
                      </Button>
                      <Button
                        size="sm"
                        variant={signing.publishedAt ? 'outline' : 'default'}
                        disabled={publish.isPending}
                        onClick={() => publish.mutate({ id: signing.id, published: !signing.publishedAt })}
                      >
                        {signing.publishedAt ? 'Unpublish' : 'Publish'}
                        <span className="sr-only"> {signing.title}</span>
                      </Button>
                    </div>
                  </div>
                )}
              </li>
            ))}
          </ul>
        )}
      </QueryView>
    </AdminPageFrame>
  );
}

function SigningForm({
  signing,
  onDone,
  onCancel,
}: {
  signing?: Signing;
  onDone?: () => void;
  onCancel?: () => void;
}) {
  const form = useForm({
    defaultValues: {
      title: signing?.title ?? '',
      author: signing?.author ?? '',
      venue: signing?.venue ?? '',
      startsAt: signing ? toLocalInput(signing.startsAt) : '',
      description: signing?.description ?? '',
    },
  });
  const create = useCreateSigning({
    onSuccess: () => {
      toast({ title: 'Event created', description: 'It is a draft until you publish it.' });
      form.reset({ title: '', author: '', venue: '', startsAt: '', description: '' });
      onDone?.();
    },
    onError: failed('Event not created'),
  });
  const update = useUpdateSigning({
    onSuccess: () => {
      toast({ title: 'Event saved' });
      onDone?.();
    },
    onError: failed('Event not saved'),
  });
  const prefix = `signing-${signing?.id ?? 'new'}`;

  const submit = form.handleSubmit(({ startsAt, ...values }) => {
    const when = new Date(startsAt);
    if (Number.isNaN(when.getTime())) {
      toast({
        variant: 'destructive',
        title: 'Event not saved',
        description: 'Choose the date and time it starts.',
      });
      return;
    }
    const fields = { ...values, startsAt: when.toISOString() };
    if (signing) update.mutate({ ...fields, id: signing.id });
    else create.mutate(fields);
  });

  return (
    <form
      className="grid gap-3 sm:grid-cols-2"
      onSubmit={submit}
      aria-label={signing ? `Edit ${signing.title}` : 'New event'}
    >
      <div className="flex flex-col gap-1">
        <Label htmlFor={`${prefix}-title`}>Title</Label>
        <Input id={`${prefix}-title`} required maxLength={200} {...form.register('title')} />
      </div>
      <div className="flex flex-col gap-1">
        <Label htmlFor={`${prefix}-author`}>Author</Label>
        <Input id={`${prefix}-author`} required maxLength={120} {...form.register('author')} />
      </div>
      <div className="flex flex-col gap-1">
        <Label htmlFor={`${prefix}-venue`}>Venue</Label>
        <Input id={`${prefix}-venue`} required maxLength={200} {...form.register('venue')} />
      </div>
      <div className="flex flex-col gap-1">
        <Label htmlFor={`${prefix}-starts`}>Date and time</Label>
        <Input id={`${prefix}-starts`} type="datetime-local" required {...form.register('startsAt')} />
      </div>
      <div className="flex flex-col gap-1 sm:col-span-2">
        <Label htmlFor={`${prefix}-description`}>Description (optional)</Label>
        <Textarea
          id={`${prefix}-description`}
          maxLength={2000}
          className="min-h-20"
          {...form.register('description')}
        />
      </div>
      <div className="flex gap-2">
        <Button type="submit" disabled={create.isPending || update.isPending}>
          {signing ? 'Save event' : 'Create event'}
        </Button>
        {onCancel ? (
          <Button type="button" variant="ghost" onClick={onCancel}>
            Cancel
          </Button>
        ) : null}
      </div>
    </form>
  );
}
